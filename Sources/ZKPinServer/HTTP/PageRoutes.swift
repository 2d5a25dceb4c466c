import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ZKPinWire

/// The browser pages: login, account, activation, session and logout.
enum PageRoutes {
    static func collection(rp: RelyingParty, pages: Pages, brand: PageBrand, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let name = rp.config.serviceName
        let session = SessionCookie(config: rp.config)
        let access = rp.access, activation = rp.activation
        let binding = PageBinding(config: rp.config, key: rp.links.key)

        routes.get("/") { request, context in
            let browser = binding.browser(of: request)
            let a = try await access.accessNumber(address: address.of(request, context)) { binding.webOTT(.session, browser: browser) }
            // `?rd=URL` (a proxy's sign-in redirect): the session form returns there once signed
            // in, when its host is one ZKPin protects; any other is dropped here.
            var action = "/session"
            if let rd = ReturnAddress.allowed(
                request.uri.queryParameters.get("rd"), hosts: rp.config.returnHosts, paths: rp.config.returnPaths)
            {
                action += "?" + ReturnAddress.query(rd)
            }
            var response = HTMLPage.response(
                pages.loginPage(
                    serviceName: name, accessNumber: a.accessNumber, webOTT: a.webOTT,
                    ttl: a.ttlSeconds, qrUrl: a.qrUrl, action: action))
            response.setCookie(binding.cookie(browser))
            return response
        }

        routes.get("/logo.svg") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "image/svg+xml",
                    .cacheControl: "public, max-age=86400",
                    .contentSecurityPolicy: PageBrand.logoPolicy,
                    .xContentTypeOptions: "nosniff"
                ], body: .init(byteBuffer: ByteBuffer(string: Logo.svg)))
        }

        // The pages' stylesheet and scripts (no inline script or style on any page), and the
        // operator's branding: the accent colour's stylesheet and the logo (an SVG runs no script).
        routes.get("/pages/:file") { request, _ in
            switch request.uri.path {
            case "/pages/brand.css": return try WebRoutes.answer(brand.css, request: request, policy: HTMLPage.policy)
            case "/pages/logo":
                return try WebRoutes.answer(brand.logo, request: request, policy: PageBrand.logoPolicy)
            default: return try WebRoutes.answer(PageAssets.files[request.uri.path], request: request, policy: HTMLPage.policy)
            }
        }

        routes.get("/mpinActivate") { request, _ in
            let page = try await activation.page(link(request))
            return activationResponse(page, request: request)
        }
        routes.post("/mpinActivate") { request, context in
            // The form is read only once the link has been verified.
            let page = try await activation.activate(link(request), address: address.of(request, context)) { () throws(APIError) in
                do { return try await FormBody.decode(ActivationForm.self, from: request, context: context).code } catch let error as APIError {
                    throw error
                } catch let error as HTTPError { throw ErrorShapeMiddleware.shaped(error) }  // 413 stays 413
                catch { throw APIError.bad("the form is not readable") }
            }
            return activationResponse(page, request: request)
        }

        routes.post("/session") { request, context in
            try SameOrigin.check(request, publicURL: rp.config.publicURL)
            let form = try await FormBody.decode(SessionRequest.self, from: request, context: context)
            // Only the browser that opened this sign-in page, and only a sign-in page's webOTT.
            try binding.check(form.webOTT, for: .session, in: request)
            let cookie = try await access.openSession(form)
            let back = ReturnAddress.allowed(
                request.uri.queryParameters.get("rd"), hosts: rp.config.returnHosts, paths: rp.config.returnPaths)
            return HTMLPage.redirect(back ?? "/account", cookie: session.cookie(cookie))
        }
        routes.post("/logout") { request, _ in
            try SameOrigin.check(request, publicURL: rp.config.publicURL)
            try await access.closeSession(cookie: session.value(in: request))
            return HTMLPage.redirect("/", cookie: session.removal())
        }
        routes.get("/account") { request, _ in
            guard let account = try await access.account(cookie: session.value(in: request)) else { return HTMLPage.redirect("/") }
            let devices = try await rp.devices.devices(userId: account.userId, current: account.mpinId)
            let events = try await rp.storage("read audit") { try await $0.auditLog(AuditQuery(userId: account.userId, limit: 200)) }
            // `?revoked=HANDLE` after a revocation: said only for a device of this person that is revoked.
            let handle = request.uri.queryParameters.get("revoked")
            let revoked = devices.first { $0.state == .revoked && DeviceHandle.of($0.mpinId) == handle }
            return HTMLPage.response(
                pages.accountPage(
                    serviceName: name, account: account, devices: devices, previous: PreviousSignIn.from(events, devices: devices),
                    revoked: revoked))
        }
        // "This device is lost": the person revokes one of their own identities (same origin only,
        // as every form of the pages), after a question that names the device; the account page
        // then says which one was revoked.
        routes.post("/account/revoke") { request, context in
            try SameOrigin.check(request, publicURL: rp.config.publicURL)
            // The form first: a malformed one is 400 with or without a session (openapi.yaml).
            let form = try await FormBody.decode(RevokeForm.self, from: request, context: context)
            guard let mpinId = form.mpinId, !mpinId.isEmpty else { throw APIError.bad("the form has no field mpinId") }
            guard let account = try await access.account(cookie: session.value(in: request)) else { return HTMLPage.redirect("/") }
            let devices = try await rp.devices.devices(userId: account.userId, current: account.mpinId)
            guard let device = devices.first(where: { $0.mpinId == mpinId && $0.state != .revoked })
            else { throw APIError.bad("no such device of yours to revoke") }
            guard form.confirm == "yes" else {
                return HTMLPage.response(pages.accountPage(serviceName: name, account: account, confirm: device))
            }
            guard try await rp.devices.revoke(userId: account.userId, mpinId: mpinId, address: address.of(request, context))
            else { throw APIError.bad("no such device of yours to revoke") }
            guard device.current else { return HTMLPage.redirect("/account?revoked=" + DeviceHandle.of(mpinId)) }
            // The identity of this very sign-in: its session ends with it, said on this answer.
            try await access.closeSession(cookie: session.value(in: request))
            var response = HTMLPage.response(pages.accountPage(serviceName: name, account: account, revoked: device, ended: true))
            response.setCookie(session.removal())
            return response
        }

        @Sendable func link(_ request: Request) -> ActivationService.Link {
            let q = request.uri.queryParameters
            return ActivationService.Link(i: q.get("i"), e: q.get("e"), s: q.get("s"))
        }

        @Sendable func activationResponse(_ page: ActivationPage, request: Request) -> Response {
            let action = "/mpinActivate?" + (request.uri.query ?? "")
            let status: HTTPResponse.Status
            switch page {
            case .ask(_, let wrong): status = wrong ? .badRequest : .ok
            case .activated: status = .ok
            case .refused: status = .badRequest
            }
            return HTMLPage.response(pages.activationPage(serviceName: name, page: page, action: action), status: status)
        }
        return routes
    }

    /// The activation page's form.
    struct ActivationForm: Decodable { var code: String? }
    /// The account page's revocation form.
    struct RevokeForm: Decodable {
        var mpinId: String?
        /// "yes" from the question's form; without it the question is asked.
        var confirm: String?
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
