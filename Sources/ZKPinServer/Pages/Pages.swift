import Foundation
import Mustache

/// The HTML pages (swift-mustache; `{{ }}` escapes every value).
public struct Pages: Sendable {
    let login: MustacheTemplate
    let account: MustacheTemplate
    let activate: MustacheTemplate
    let device: MustacheTemplate
    /// What the login page's command starts with, quoted for a POSIX shell when needed.
    let clientCommand: String

    public init(clientCommand: String = "zkpin") throws {
        self.clientCommand = Self.shellWord(clientCommand)
        login = try Self.load("login")
        account = try Self.load("account")
        activate = try Self.load("activate")
        device = try Self.load("device")
    }

    /// A template of `Templates/`, the package's resource folder.
    static func load(_ name: String) throws -> MustacheTemplate {
        try MustacheTemplate(string: source(name))
    }

    /// The text of `Templates/<name>.mustache`.
    static func source(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "mustache", subdirectory: "Templates")
        else { throw CocoaError(.fileNoSuchFile) }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// `text` as one word of a POSIX shell: as it is when it holds only safe characters, else
    /// in single quotes.
    static func shellWord(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%,")
        if !text.isEmpty && text.allSatisfy({ safe.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The one-message page (errors, "signed out", the logout confirmation), loaded once.
    static let messageTemplate: MustacheTemplate? = try? load("message")

    /// `clientName` and `action`: the OpenID Connect provider's variant ("Sign in to <client>
    /// with your PIN", posting to /oauth/authorize/complete).
    func loginPage(
        serviceName: String, accessNumber: String, webOTT: String, ttl: Int, qrUrl: String,
        clientName: String? = nil, action: String = "/session"
    ) -> String {
        var object: [String: Any] = [
            "serviceName": serviceName, "accessNumber": accessNumber, "webOTT": webOTT,
            "ttlSeconds": String(ttl), "qrUrl": qrUrl, "qrSVG": QRCodeSVG.svg(qrUrl) ?? "", "action": action,
            "clientCommand": clientCommand
        ]
        if let clientName { object["clientName"] = clientName }
        // Screen readers read the code digit by digit, not as one large number.
        object["spokenAccessNumber"] = accessNumber.map(String.init).joined(separator: " ")
        return login.render(PageStrings.adding(to: object))
    }

    /// The account page; with `confirm`, the question before that device is revoked instead;
    /// `revoked`: the device just revoked (the result said at the top); `previous`: the sign-in
    /// before this session's.
    func accountPage(
        serviceName: String, account: AccountView, devices: [DeviceView] = [], previous: PreviousSignIn? = nil,
        revoked: DeviceView? = nil, confirm: DeviceView? = nil, ended: Bool = false
    ) -> String {
        let t = PageStrings.table
        func name(_ device: String) -> String { device.isEmpty ? t["accountDeviceUnnamed", default: ""] : device }
        func deviceObject(_ d: DeviceView) -> [String: Any] {
            [
                "mpinId": d.mpinId, "device": name(d.device), "created": PageTime.text(d.created), "createdISO": ISOTime.string(d.created),
                "lastLogin": d.lastLogin.map(PageTime.text) ?? t["accountNever", default: ""],
                "state": t["accountState_" + d.state.rawValue, default: d.state.rawValue], "current": d.current,
                "revocable": d.state != .revoked
            ].merging(d.lastLogin.map { ["lastLoginISO": ISOTime.string($0)] } ?? [:]) { a, _ in a }
        }
        var object: [String: Any] = [
            "serviceName": serviceName, "userId": account.userId, "device": name(account.device),
            "devices": devices.map(deviceObject)
        ]
        if let previous {
            // Absent parts are left out (a section over "" would still render).
            var shown: [String: Any] = ["time": PageTime.text(previous.time), "iso": ISOTime.string(previous.time)]
            if let device = previous.device { shown["device"] = name(device) }
            if let address = previous.address, !address.isEmpty { shown["address"] = address }
            object["previous"] = shown
        }
        if let revoked { object["revoked"] = deviceObject(revoked) }
        if let confirm { object["confirm"] = deviceObject(confirm) }
        if ended { object["ended"] = true }
        return self.account.render(PageStrings.adding(to: object))
    }

    /// The device grant's pages (RFC 8628): the code to type, the question, the outcome.
    enum DeviceStep {
        case enter(userCode: String, error: String?)
        case confirm(userCode: String, clientName: String, userId: String, scope: String)
        case allowed, denied
    }

    func devicePage(serviceName: String, step: DeviceStep) -> String {
        let t = PageStrings.table
        var object: [String: Any] = ["serviceName": serviceName]
        switch step {
        case let .enter(userCode, error):
            object["title"] = t["deviceTitle", default: ""]
            var enter: [String: Any] = ["userCode": userCode]
            if let error { enter["error"] = error }
            object["enter"] = enter
        case let .confirm(userCode, clientName, userId, scope):
            object["title"] = t["deviceConfirmTitle", default: ""]
            object["confirm"] = [
                "userCode": userCode, "userId": userId, "scopes": scope.split(separator: " ").joined(separator: ", "),
                "question": t["deviceConfirmQuestion", default: ""].replacingOccurrences(of: "%s", with: clientName)
            ]
        case .allowed:
            object["title"] = t["deviceAllowedTitle", default: ""]
            object["done"] = ["message": t["deviceAllowed", default: ""]]
        case .denied:
            object["title"] = t["deviceDeniedTitle", default: ""]
            object["done"] = ["message": t["deviceDenied", default: ""]]
        }
        return device.render(PageStrings.adding(to: object))
    }

    func activationPage(serviceName: String, page: ActivationPage, action: String) -> String {
        var object: [String: Any] = ["serviceName": serviceName]
        switch page {
        case let .ask(p, wrongCode):
            object["ask"] =
                [
                    "userId": p.userId, "device": p.device.isEmpty ? PageStrings.table["accountDeviceUnnamed", default: ""] : p.device,
                    "requested": ISOTime.string(p.created), "address": p.address, "wrongCode": wrongCode, "action": action
                ] as [String: Any]
        case let .activated(userId): object["activated"] = ["userId": userId]
        case let .refused(message): object["refused"] = ["message": message]
        }
        return activate.render(PageStrings.adding(to: object))
    }
}
