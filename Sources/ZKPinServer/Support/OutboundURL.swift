import Foundation

/// Where the server may post on its own (back-channel logouts, security event hooks): an
/// absolute https URL, or http on a loopback address for a receiver in development. The
/// operator names these URLs; what they answer is never followed to a redirect.
enum OutboundURL {
    static func isAllowed(_ url: String) -> Bool {
        guard url.utf8.count <= 2000, let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            let host = parts.host?.lowercased(), !host.isEmpty, parts.fragment == nil
        else { return false }
        if scheme == "https" { return true }
        return scheme == "http" && (host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127."))
    }
}
