import Foundation
import ZKPinProtocol
import ZKPinWire

/// A discovered M-Pin server: what `/service` and `/rps/clientSettings` said, with the URLs of
/// its endpoints resolved against the address the client reached.
public struct Service: Sendable {
    /// The normalized address the client talked to (`--server` or the payload's URL).
    public let base: String
    public let info: ServiceInfo
    public let settings: ClientSettings
    public let curve: CurveID

    /// The normalized URL the server reports for itself (nil when it reports none usable).
    public var reportedURL: String? { try? ServerURL.normalize(info.url) }

    /// The host a person should see: the one reached.
    public var origin: String { base }

    /// Non-nil when the payload's host differs from the one `/service` reports: (reached, reported).
    public var hostMismatch: (reached: String, reported: String)? {
        guard let reported = reportedURL else { return nil }
        let reachedHost = ServerURL.hostAndPort(base), reportedHost = ServerURL.hostAndPort(reported)
        return reachedHost == reportedHost ? nil : (reachedHost, reportedHost)
    }

    func resolve(_ url: String) -> String { ClientSettings.resolve(url, against: base) }

    package var registerURL: String { resolve(settings.registerURL) }
    /// Share 1's URL; the regOTT goes in the `regOTTHeader` header, never in the URL (proxies log URLs).
    package func signatureURL(mpinId: String) -> String {
        resolve(settings.signatureURL) + "/" + mpinId
    }
    package static let regOTTHeader = "X-ZKPin-RegOTT"
    package func timePermitURL(mpinId: String) -> String { resolve(settings.timePermitsURL) + "/" + mpinId }
    package var pass1URL: String { resolve(settings.mpinAuthServerURL) + "/pass1" }
    package var pass2URL: String { resolve(settings.mpinAuthServerURL) + "/pass2" }
    package var authenticateURL: String { resolve(settings.mobileAuthenticateURL) }
    /// `/rps/approvals` and `/rps/approvals/answer` (not in clientSettings): under the `rps_prefix`.
    var approvalsURL: String {
        base + "/" + info.rpsPrefix.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/approvals"
    }
    /// `/rps/push/...` (not in clientSettings): settings, subscriptions and the live events.
    package func pushURL(_ path: String) -> String {
        base + "/" + info.rpsPrefix.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/push/" + path
    }
    /// `/rps/codeStatus` (not in clientSettings): under the `rps_prefix` of `/service`.
    var codeStatusURL: String {
        base + "/" + info.rpsPrefix.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/codeStatus"
    }
    /// `<dta2URL>/<path>?<params>`; params come signed from the relying party as they are.
    package func dta2URL(_ path: String, params: String) -> String {
        var dta2 = resolve(settings.dta2URL)
        while dta2.hasSuffix("/") { dta2.removeLast() }
        return dta2 + "/" + path + "?" + params
    }
}

/// Reads `/service` and `/rps/clientSettings`.
public struct Discovery: Sendable {
    public let connection: RPSConnection

    public init(connection: RPSConnection) { self.connection = connection }

    /// `server` must be normalized (`ServerURL.normalize`).
    public func discover(server: String) async throws(ClientError) -> Service {
        let infoAnswer = try await connection.get(server + "/service")
        guard infoAnswer.isSuccess else {
            throw .notMPinServer(url: server, reason: "GET /service answered HTTP \(infoAnswer.status)")
        }
        var info = try infoAnswer.decode(ServiceInfo.self, discovery: true)
        // The name is printed and shown everywhere: a hostile server's controls, bidi
        // overrides or line breaks are escaped once, here.
        info.name = DisplayText.escaped(info.name)
        let prefix = info.rpsPrefix.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard !prefix.isEmpty, prefix.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .notMPinServer(url: server, reason: "its rps_prefix \"\(info.rpsPrefix.prefix(40))\" is not a path segment")
        }
        let settingsAnswer = try await connection.get(server + "/" + prefix + "/clientSettings")
        guard settingsAnswer.isSuccess else {
            throw .notMPinServer(url: server, reason: "GET /\(prefix)/clientSettings answered HTTP \(settingsAnswer.status)")
        }
        let settings = try settingsAnswer.decode(ClientSettings.self, discovery: true)
        guard let curve = CurveID(name: settings.curve) else {
            throw .notMPinServer(url: server, reason: "it uses the curve \"\(settings.curve.prefix(40))\", which this client does not know")
        }
        return Service(base: server, info: info, settings: settings, curve: curve)
    }
}
