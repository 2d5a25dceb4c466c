import Foundation
import Hummingbird

// The browser's session helpers, in one place: its cookie and the same-origin rule of the
// forms that open or close it (`/session`, `/logout`, `/oauth/authorize/complete`,
// `/oauth/logout`).

/// The session cookie: HttpOnly, SameSite=Lax, and `Secure` with the `__Host-` prefix when the
/// public URL is https. With `--cookie-domain` it is sent to every host under that domain (the
/// sites a proxy protects with `/auth/verify`): `__Secure-` then, as `__Host-` forbids a Domain.
struct SessionCookie: Sendable {
    let name: String
    let secure: Bool
    let maxAge: Int
    let domain: String?

    init(config: ServerConfig) {
        secure = config.isHTTPS
        domain = config.cookieDomain
        name = secure ? (domain == nil ? "__Host-zkpin" : "__Secure-zkpin") : "zkpin"
        maxAge = config.sessionTTL
    }

    func value(in request: Request) -> String? { request.cookies[name]?.value }
    func cookie(_ value: String) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, domain: domain, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
    func removal() -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, domain: domain, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

/// Where a sign-in returns to (`rd`, as nginx, Caddy and Traefik setups pass it): an absolute
/// http(s) URL whose host is one of `hosts`, else nil (the sign-in goes to /account).
enum ReturnAddress {
    /// `rd` when it is an absolute URL on one of `hosts`, or a path of this server under one of
    /// `paths` (`/admin`, `/admin/people?q=x`; never `//host` or a backslash, which browsers
    /// read as another host).
    static func allowed(_ rd: String?, hosts: Set<String>, paths: Set<String> = []) -> String? {
        guard let rd, rd.utf8.count <= 2048 else { return nil }
        if rd.hasPrefix("/") && !rd.hasPrefix("//") && !rd.contains("\\") && !rd.contains(where: { $0.isWhitespace || $0.isNewline }) {
            let within = paths.contains { path in
                rd == path || rd.hasPrefix(path + "/") || rd.hasPrefix(path + "?")
            }
            return within ? rd : nil
        }
        guard let host = host(of: rd), hosts.contains(host) else { return nil }
        return rd
    }

    /// `rd=<url>`, the URL percent-encoded whole (letters and digits kept), for a query.
    static func query(_ url: String) -> String {
        "rd=" + (url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    /// The lower-case host (no port, no user info) of an absolute http(s) URL; nil otherwise.
    static func host(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.user == nil, components.password == nil,
            let host = components.host, !host.isEmpty
        else { return nil }
        return host.lowercased()
    }
}

/// Same-origin only: the Origin (or, without it, the Referer) must be the public URL's.
enum SameOrigin {
    static func check(_ request: Request, publicURL: String) throws(APIError) {
        let origin = originOf(publicURL)
        if let o = request.headers[.origin] {
            guard o == origin else { throw APIError(.forbidden, "cross-origin request refused") }
            return
        }
        if let referer = request.headers[.referer] {
            guard originOf(referer) == origin else { throw APIError(.forbidden, "cross-origin request refused") }
            return
        }
        throw APIError(.forbidden, "same-origin requests only (no Origin header)")
    }

    static func originOf(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let host = rest.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        return String(url[..<scheme.upperBound]) + host
    }
}
