import Foundation

/// What the demo says about the address people open: whether a browser there is in a secure
/// context, which the web app needs for WebCrypto (the W3C's "potentially trustworthy" origins:
/// https, and http only at localhost or a loopback address).
enum DemoAddress {
    /// An address that listens everywhere and names no machine (0.0.0.0, ::).
    static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]"].contains(host)
    }

    /// True when a browser treats a page from `url` as a secure context.
    static func isSecureContext(_ url: String) -> Bool {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), let host = parts.host?.lowercased() else {
            return false
        }
        if scheme == "https" { return true }
        guard scheme == "http" else { return false }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare.hasPrefix("127.")
    }

    /// The lines the demo prints after "Open URL/ to sign in.".
    static func notes(publicURL url: String) -> [String] {
        var lines = ["The web app (a phone or this browser as the client): \(url)/app"]
        if !isSecureContext(url) {
            lines.append(
                "NOTE: a browser does not treat \(url) as secure (plain http, not localhost), so the web app there cannot register or sign in. "
                    + "For a phone, use USB port forwarding to its localhost, or a tunnel or TLS proxy with --public-url https://...: "
                    + "docs/user.md, \"Trying the demo on a phone\".")
        }
        return lines
    }
}
