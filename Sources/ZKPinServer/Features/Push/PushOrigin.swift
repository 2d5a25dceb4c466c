import Foundation

/// The origin (RFC 6454) of a push endpoint: scheme, host and port, read with the same URL
/// parser the HTTP client then connects with, so the origin checked is the one called.
/// Printed as `scheme://host` with the port only when it is not the scheme's default: the
/// form VAPID's `aud` and the allow-list use.
public struct PushOrigin: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    /// Lowercase; an IPv6 address without its brackets.
    public let host: String
    public let port: Int

    public init(scheme: String, host: String, port: Int? = nil) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port ?? (self.scheme == "https" ? 443 : 80)
    }

    /// The origin of `url`: nil when it is not an absolute http or https URL with a host.
    /// `url.user` is also reported, since an endpoint with credentials in it is refused.
    static func parse(_ text: String) -> (origin: PushOrigin, url: URL)? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            var host = url.host, !host.isEmpty
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (PushOrigin(scheme: scheme, host: host, port: url.port), url)
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return port == defaultPort ? "\(scheme)://\(shownHost)" : "\(scheme)://\(shownHost):\(port)"
    }

    /// 127.0.0.0/8 or ::1, written as an address (a name could resolve anywhere).
    public var isLoopback: Bool {
        if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
