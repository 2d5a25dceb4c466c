import Hummingbird
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
