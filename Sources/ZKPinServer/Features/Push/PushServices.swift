import Foundation

/// The push services the server may call: an allow-list of origins, so that no subscriber can
/// make the server send requests to an internal address. An entry is an https origin, an https
/// origin whose host starts with `*.` (any subdomain of the rest, at any depth, not the rest
/// itself), or an http origin on a loopback address (test push services).
public struct PushServices: Sendable, Equatable, CustomStringConvertible {
    public enum Rule: Sendable, Equatable, CustomStringConvertible {
        case origin(PushOrigin)
        /// `https://*.notify.windows.com`: scheme, parent host, port.
        case subdomains(of: PushOrigin)

        func allows(_ candidate: PushOrigin) -> Bool {
            switch self {
            case .origin(let origin): return candidate == origin
            case .subdomains(let parent):
                return candidate.scheme == parent.scheme && candidate.port == parent.port
                    && candidate.host.hasSuffix("." + parent.host) && candidate.host.count > parent.host.count + 1
            }
        }

        public var description: String {
            switch self {
            case .origin(let origin): return origin.description
            case .subdomains(let parent):
                let text = parent.description
                return text.replacingOccurrences(of: "://", with: "://*.")
            }
        }
    }

    public let rules: [Rule]

    /// The push services of Chrome and Android (FCM), Firefox (Mozilla autopush), Safari on
    /// macOS and iOS (Apple), and Edge (Windows Push Notification Services, one host per region).
    public static let defaultSetting =
        "https://fcm.googleapis.com,https://updates.push.services.mozilla.com,https://web.push.apple.com,https://*.notify.windows.com"

    public static let `default` = try! PushServices(parsing: defaultSetting)

    public enum SettingError: Error, Equatable, CustomStringConvertible {
        case empty
        case notAnOrigin(String)
        case notHTTPS(String)
        case badWildcard(String)

        public var description: String {
            switch self {
            case .empty: return "the push services setting lists no origin (give ORIGIN,ORIGIN,...)"
            case .notAnOrigin(let entry):
                return "push service '\(entry)' is not an origin: write scheme://host[:port], with no path, query or user"
            case .notHTTPS(let entry):
                return "push service '\(entry)' is not https: only https, or http on a loopback address (127.0.0.1, [::1]) for tests"
            case .badWildcard(let entry):
                return "push service '\(entry)': a wildcard must be the whole first label of an https host, "
                    + "with two labels or more after it (https://*.notify.windows.com)"
            }
        }
    }

    public init(rules: [Rule]) { self.rules = rules }

    /// Reads `ORIGIN,ORIGIN,...` (spaces around entries are ignored, so are empty entries).
    public init(parsing setting: String) throws(SettingError) {
        var rules = [Rule]()
        for raw in setting.split(separator: ",") {
            let entry = raw.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty { continue }
            rules.append(try Self.rule(entry))
        }
        guard !rules.isEmpty else { throw .empty }
        self.rules = rules
    }

    private static func rule(_ entry: String) throws(SettingError) -> Rule {
        // The URL parser does not take "*" in a host: put a plain label in its place to read
        // the rest, and check the wildcard's own form here.
        let wildcard = entry.range(of: "://*.")
        let readable = wildcard.map { entry.replacingCharacters(in: $0, with: "://wildcard.") } ?? entry
        guard !readable.contains("*") else { throw .badWildcard(entry) }
        guard let (origin, url) = PushOrigin.parse(readable), url.user == nil, url.password == nil, url.query == nil,
            url.fragment == nil, url.path.isEmpty || url.path == "/"
        else { throw .notAnOrigin(entry) }
        guard origin.scheme == "https" || (origin.isLoopback && wildcard == nil) else {
            throw wildcard == nil ? .notHTTPS(entry) : .badWildcard(entry)
        }
        guard wildcard != nil else { return .origin(origin) }
        let parent = String(origin.host.dropFirst("wildcard.".count))
        // "*.com" would allow a whole top-level domain.
        guard parent.split(separator: ".").count >= 2, !parent.contains(":") else { throw .badWildcard(entry) }
        return .subdomains(of: PushOrigin(scheme: origin.scheme, host: parent, port: origin.port))
    }

    /// Why an endpoint may not be called.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case notAURL(String)
        case credentials
        case notHTTPS(PushOrigin)
        case notAllowed(PushOrigin)

        public var description: String {
            switch self {
            case .notAURL(let text): return "push endpoint '\(text.prefix(200))' is not an http or https URL with a host"
            case .credentials: return "a push endpoint must not carry a user or password"
            case .notHTTPS(let origin): return "push endpoint origin \(origin) is not https"
            case .notAllowed(let origin): return "push endpoint origin \(origin) is not one of the allowed push services"
            }
        }
    }

    /// The endpoint's origin when the server may send to it: https (or http on a loopback
    /// address), and under an allowed origin. Use it when a subscription is stored, and again
    /// before each send (the list may have changed since).
    public func check(endpoint: String) throws(Refusal) -> PushOrigin {
        guard let (origin, url) = PushOrigin.parse(endpoint) else { throw .notAURL(endpoint) }
        guard url.user == nil, url.password == nil else { throw .credentials }
        guard origin.scheme == "https" || origin.isLoopback else { throw .notHTTPS(origin) }
        guard allows(origin) else { throw .notAllowed(origin) }
        return origin
    }

    public func allows(_ origin: PushOrigin) -> Bool { rules.contains { $0.allows(origin) } }

    /// The setting that reads back as this list.
    public var description: String { rules.map(\.description).joined(separator: ",") }
}
