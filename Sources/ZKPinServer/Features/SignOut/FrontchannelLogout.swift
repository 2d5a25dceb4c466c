import Foundation

/// The sign-out page's iframes (OpenID Connect Front-Channel Logout 1.0, section 3): one per
/// site the session signed in to that registered a front-channel logout URI, with `iss` and
/// `sid` when the site asked for them; the page's policy allows exactly those frames.
struct FrontchannelFrames: Equatable {
    /// The frames' addresses.
    var sources: [String]
    /// The sites' names, for the page's sentence.
    var sites: [String]

    init(_ ended: [EndedLogin], issuer: String) {
        var sources: [String] = []
        var sites: [String] = []
        for e in ended {
            guard let client = e.client else { continue }
            if !sites.contains(client.name) { sites.append(client.name) }
            guard let uri = client.frontchannelLogoutURI, OutboundURL.isAllowed(uri) else { continue }
            let source =
                client.frontchannelLogoutSessionRequired && e.login.sid != nil
                ? RedirectURL.with(uri, [("iss", issuer), ("sid", e.login.sid)]) : uri
            if !sources.contains(source) { sources.append(source) }
        }
        self.sources = sources
        self.sites = sites
    }

    /// `frame-src` with the origin of each frame (nil when there is none: frames stay blocked).
    var policyDirective: String? {
        let origins = sources.compactMap { source -> String? in
            guard let url = URLComponents(string: source), let scheme = url.scheme, let host = url.host else { return nil }
            return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        }
        guard !origins.isEmpty else { return nil }
        return "frame-src " + Array(Set(origins)).sorted().joined(separator: " ")
    }
}
