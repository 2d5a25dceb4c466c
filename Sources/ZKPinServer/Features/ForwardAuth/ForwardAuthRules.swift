import Foundation

/// Who may enter each host a reverse proxy protects with `/auth/verify` (`--forward-auth`):
/// `HOST=WHO|WHO,HOST=WHO`, where WHO is `*` (anyone signed in), `@example.com` (an e-mail
/// domain) or `ann@example.com` (one person). A host not listed is refused, and a listed host
/// lets in only whom its rule names: deny by default.
public struct ForwardAuthRules: Sendable, Equatable {
    public enum Who: Sendable, Equatable {
        case anyone
        case domain(String)
        case person(String)
    }

    /// Lower-case host names (no port) and who may enter each.
    public let hosts: [String: [Who]]

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(Invalid) {
        var hosts: [String: [Who]] = [:]
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, Self.isHostName(parts[0]) else {
                throw Invalid(description: "'\(entry)' is not HOST=WHO (a host name, then who may enter it)")
            }
            var who: [Who] = []
            for item in parts[1].split(separator: "|").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
                if item == "*" {
                    who.append(.anyone)
                } else if item.hasPrefix("@"), Self.isHostName(String(item.dropFirst())) {
                    who.append(.domain(String(item.dropFirst())))
                } else if let at = item.firstIndex(of: "@"), at != item.startIndex, Self.isHostName(String(item[item.index(after: at)...])) {
                    who.append(.person(item))
                } else {
                    throw Invalid(description: "'\(item)' in '\(entry)' is not *, @DOMAIN or an e-mail address")
                }
            }
            guard !who.isEmpty else { throw Invalid(description: "'\(entry)' names nobody who may enter") }
            hosts[parts[0].lowercased(), default: []] += who
        }
        guard !hosts.isEmpty else { throw Invalid(description: "no HOST=WHO rule") }
        self.hosts = hosts
    }

    /// Whether `email` may enter `host` (lower case, no port).
    public func allows(_ email: String, on host: String) -> Bool {
        guard let rules = hosts[host] else { return false }
        let email = email.lowercased()
        let domain = email.split(separator: "@").last.map(String.init) ?? ""
        return rules.contains { rule in
            switch rule {
            case .anyone: return true
            case .domain(let d): return domain == d
            case .person(let p): return email == p
            }
        }
    }

    static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 253
            && text.lowercased().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
