import Foundation

/// A server's base URL in one canonical spelling, so that `--server http://Host:8080/` and the
/// payload `http://host:8080#...` find the same stored identity.
public enum ServerURL {
    /// Lower-case scheme and host, default ports dropped, no query, fragment or trailing slash.
    /// Throws `ClientError.malformedURL` for anything that is not an http(s) URL with a host.
    public static func normalize(_ text: String) throws(ClientError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard var components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil
        else { throw .malformedURL(text) }
        components.scheme = scheme
        components.host = host.lowercased()
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.query = nil
        components.fragment = nil
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path
        guard let result = components.string else { throw .malformedURL(text) }
        return result
    }

    /// The host (and port) part, for the host-mismatch warning.
    public static func hostAndPort(_ normalized: String) -> String {
        guard let components = URLComponents(string: normalized), let host = components.host else {
            return normalized
        }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}
