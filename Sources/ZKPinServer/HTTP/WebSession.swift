import Hummingbird

// The browser's session helpers, in one place: its cookie and the same-origin rule of the
// forms that open or close it (`/session`, `/logout`, `/oauth/authorize/complete`,
// `/oauth/logout`).

/// The session cookie: HttpOnly, SameSite=Lax, and `Secure` with the `__Host-` prefix when the
/// public URL is https.
struct SessionCookie: Sendable {
    let name: String
    let secure: Bool
    let maxAge: Int

    init(config: ServerConfig) {
        secure = config.isHTTPS
        name = secure ? "__Host-zkpin" : "zkpin"
        maxAge = config.sessionTTL
    }

    func value(in request: Request) -> String? { request.cookies[name]?.value }
    func cookie(_ value: String) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
    func removal() -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
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
