import Hummingbird

/// Binds a sign-in page's completion to the browser that opened it, and its webOTT to the
/// purpose it was drawn for (issue 29, finding 6).
///
/// The browser holds a random value in an HttpOnly cookie (`zkpin-page`; `__Host-zkpin-page`
/// and `Secure` when the public URL is https; SameSite=Lax so that the authorization page,
/// reached by a cross-site link, sets it; renewed with every page). The page's webOTT is
/// `R ‖ T`: R is 16 fresh random bytes and T = HMAC(rps.key, purpose, R, the browser's value)
/// cut to 16 bytes, both as hex (64 characters, as before). `/session` and
/// `/oauth/authorize/complete` recompute T from the posted webOTT, their own purpose and the
/// request's cookie before they touch the store: another browser (no cookie, or its own) or a
/// webOTT drawn for the other purpose is refused with 403 and nothing is consumed. Nothing is
/// stored, the check is one HMAC, and several tabs of one browser each keep working (they share
/// the cookie).
struct PageBinding: Sendable {
    /// What a webOTT may complete.
    enum Purpose: String, Sendable {
        /// The service's own sign-in page (`GET /`, `POST /rps/getAccessNumber`) → `/session`.
        case session
        /// The OpenID Connect authorization page → `/oauth/authorize/complete`.
        case authorize
        /// The device grant's sign-in page (`/device`) → `/device/complete`.
        case device
    }

    let key: [UInt8]
    let name: String
    let secure: Bool
    /// The cookie outlives any page's code by far; each page renews it.
    static let maxAge = 86_400

    init(config: ServerConfig, key: [UInt8]) {
        self.key = key
        secure = config.isHTTPS
        name = secure ? "__Host-zkpin-page" : "zkpin-page"
    }

    /// The browser's value: its cookie when it has a well-formed one, otherwise a fresh one
    /// (set with the answer).
    func browser(of request: Request) -> String {
        if let value = request.cookies[name]?.value, Self.isToken(value) { return value }
        return Tokens.fresh()
    }

    /// A fresh webOTT for `purpose`, bound to `browser`.
    func webOTT(_ purpose: Purpose, browser: String) -> String {
        let r = Tokens.fresh(bytes: 16)
        return r + tag(purpose, r, browser)
    }

    /// Whether `webOTT` was drawn for `purpose` by the browser that sent `request`.
    func holds(_ webOTT: String, for purpose: Purpose, in request: Request) -> Bool {
        guard webOTT.utf8.count == 64, let browser = request.cookies[name]?.value, Self.isToken(browser) else { return false }
        let r = String(webOTT.prefix(32)), t = String(webOTT.suffix(32))
        return Tokens.equal(tag(purpose, r, browser), t.lowercased())
    }

    /// Refuses (403, nothing consumed) a completion from another browser or for another purpose.
    func check(_ webOTT: String, for purpose: Purpose, in request: Request) throws(APIError) {
        guard holds(webOTT, for: purpose, in: request) else {
            throw APIError(
                .forbidden,
                "this sign-in can only be completed in the browser that opened its page, on that page: open the sign-in page again here")
        }
    }

    func cookie(_ browser: String) -> Cookie {
        Cookie(name: name, value: browser, maxAge: Self.maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    private func tag(_ purpose: Purpose, _ r: String, _ browser: String) -> String {
        String(Tokens.hmac(key: key, "page-binding\n\(purpose.rawValue)\n\(r)\n\(browser)").prefix(32))
    }

    /// 64 lowercase hex characters, as `Tokens.fresh()` makes them.
    static func isToken(_ value: String) -> Bool {
        value.utf8.count == 64 && value.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
