import HTTPTypes
import Hummingbird
import NIOCore
import ZKPinWire

/// The browser pages: login, account, activation, session and logout.
enum PageRoutes {
    static func add(to router: Router<AppContext>, rp: RelyingParty, pages: Pages) {
        let name = rp.config.serviceName
        let cookieName = rp.config.isHTTPS ? "__Host-zkpin" : "zkpin"
        let proxy = rp.config.trustedProxy

        router.get("/") { _, _ in
            let a = try await rp.accessNumber()
            return HTTPHelpers.html(pages.loginPage(serviceName: name, accessNumber: a.accessNumber, webOTT: a.webOTT,
                                                    ttl: a.ttlSeconds, qrUrl: a.qrUrl))
        }

        router.get("/logo.svg") { _, _ in
            Response(status: .ok, headers: [
                .contentType: "image/svg+xml",
                .cacheControl: "public, max-age=86400",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ], body: .init(byteBuffer: ByteBuffer(string: Logo.svg)))
        }

        router.get("/mpinActivate") { request, _ in
            let q = request.uri.queryParameters
            let page = await rp.activationPage(i: q.get("i"), e: q.get("e"), s: q.get("s"))
            return activationResponse(page, request: request)
        }
        router.post("/mpinActivate") { request, context in
            let q = request.uri.queryParameters
            let fields = try await HTTPHelpers.fields(request)
            let page = await rp.activate(i: q.get("i"), e: q.get("e"), s: q.get("s"), code: fields["code"],
                                         address: HTTPHelpers.address(request, context, trustedProxy: proxy))
            return activationResponse(page, request: request)
        }

        router.post("/session") { request, _ in
            try sameOrigin(request, rp.config.publicURL)
            let fields = try await HTTPHelpers.fields(request)
            guard let webOTT = fields["webOTT"], let authOTT = fields["authOTT"] else { throw APIError.bad("webOTT and authOTT are required") }
            let cookie = try await rp.openSession(SessionRequest(webOTT: webOTT, authOTT: authOTT))
            return HTTPHelpers.redirect("/account", cookie: cookieHeader(cookieName, cookie, maxAge: rp.config.sessionTTL, secure: rp.config.isHTTPS))
        }
        router.post("/logout") { request, _ in
            try sameOrigin(request, rp.config.publicURL)
            await rp.closeSession(cookie: HTTPHelpers.cookie(request, named: cookieName))
            return HTTPHelpers.redirect("/", cookie: cookieHeader(cookieName, "", maxAge: 0, secure: rp.config.isHTTPS))
        }
        router.get("/account") { request, _ in
            guard let account = await rp.account(cookie: HTTPHelpers.cookie(request, named: cookieName)) else {
                return HTTPHelpers.redirect("/")
            }
            return HTTPHelpers.html(pages.accountPage(serviceName: name, account: account))
        }

        @Sendable func activationResponse(_ page: ActivationPage, request: Request) -> Response {
            let action = "/mpinActivate?" + (request.uri.query ?? "")
            let status: HTTPResponse.Status
            switch page {
            case .ask(_, let wrong): status = wrong ? .badRequest : .ok
            case .activated: status = .ok
            case .refused: status = .badRequest
            }
            return HTTPHelpers.html(pages.activationPage(serviceName: name, page: page, action: action), status: status)
        }
    }

    static func cookieHeader(_ name: String, _ value: String, maxAge: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// Same-origin only: the Origin (or, without it, the Referer) must be the public URL's.
    static func sameOrigin(_ request: Request, _ publicURL: String) throws(APIError) {
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

/// The service logo that `/service` names as `logo_url`: a small inline SVG (a padlock
/// with a keypad dot pattern), no external resources.
enum Logo {
    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="ZKPin">
        <title>ZKPin</title>
        <rect width="64" height="64" rx="12" fill="#1d4ed8"/>
        <path d="M22 28v-6a10 10 0 0 1 20 0v6" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/>
        <rect x="16" y="28" width="32" height="24" rx="4" fill="#fff"/>
        <g fill="#1d4ed8"><circle cx="25" cy="36" r="2.5"/><circle cx="32" cy="36" r="2.5"/><circle cx="39" cy="36" r="2.5"/>
        <circle cx="25" cy="44" r="2.5"/><circle cx="32" cy="44" r="2.5"/><circle cx="39" cy="44" r="2.5"/></g>
        </svg>

        """
}
