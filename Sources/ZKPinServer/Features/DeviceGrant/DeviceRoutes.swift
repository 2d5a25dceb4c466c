import Hummingbird
import ZKPinWire

/// The device authorization grant (RFC 8628): the device's `POST /oauth/device_authorization`
/// (with the client-authenticated endpoints' limits), and the person's pages. `/device` takes
/// the user code (typed, or in `verification_uri_complete`); a signed-in browser is asked to
/// allow or deny, any other first signs in on the access-code page, whose completion
/// (`/device/complete`) comes back to the question. Every form is same-origin only.
enum DeviceRoutes {
    static let grant = ExtensionGrant(
        type: OIDCProvider.deviceGrant,
        redeem: { provider, p, client, address throws(OAuthError) in
            try await provider.redeemDeviceCode(p.device_code, client: client, address: address)
        },
        describe: { metadata in metadata.device_authorization_endpoint = metadata.issuer + "/oauth/device_authorization" })

    static func collection(_ web: ProviderWeb, pages: Pages) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let provider = web.provider

        routes.post("/oauth/device_authorization") { request, context in
            try await TokenRoutes.clientAuthenticated(web, request, context, DeviceAuthorizationParameters.self) { params, basic, from in
                try await provider.deviceAuthorization(params, basic: basic, address: from)
            }
        }

        @Sendable func page(_ step: Pages.DeviceStep, status: HTTPResponse.Status = .ok) -> Response {
            HTMLPage.response(pages.devicePage(serviceName: web.serviceName, step: step), status: status)
        }

        routes.get("/device") { request, context in
            guard let typed = request.uri.queryParameters.get("user_code"), !typed.isEmpty else {
                return page(.enter(userCode: "", error: nil))
            }
            let from = web.address.of(request, context)
            let found: (code: DeviceCode, client: OIDCClient)?
            do { found = try await provider.pendingDevice(userCode: String(typed.prefix(64)), address: from) } catch let error as OAuthError {
                guard error.statusCode == 429 else { throw web.page("Unavailable", error.description, status: .serviceUnavailable) }
                throw web.page("Too many attempts", "Too many wrong codes from this address: try again in a minute.", status: .tooManyRequests)
            }
            guard let (code, client) = found, let canonical = UserCode.canonical(typed) else {
                return page(
                    .enter(userCode: String(typed.prefix(20)), error: PageStrings.table["deviceBadCode", default: ""]), status: .badRequest)
            }
            let shown = UserCode.display(canonical)
            if let session = try await provider.session(cookie: web.cookie.value(in: request)) {
                return page(.confirm(userCode: shown, clientName: client.name, userId: session.userId, scope: code.scope))
            }
            let browser = web.binding.browser(of: request)
            let access = try await provider.access.accessNumber(address: from, site: client.name) {
                web.binding.webOTT(.device, browser: browser)
            }
            var response = HTMLPage.response(
                pages.loginPage(
                    serviceName: web.serviceName, accessNumber: access.accessNumber, webOTT: access.webOTT, ttl: access.ttlSeconds,
                    qrUrl: access.qrUrl, clientName: client.name, action: "/device/complete?user_code=" + shown))
            response.setCookie(web.binding.cookie(browser))
            return response
        }

        // The access-code page's completion: the session, then back to the question.
        routes.post("/device/complete") { request, context in
            try SameOrigin.check(request, publicURL: web.publicURL)
            guard let canonical = request.uri.queryParameters.get("user_code").flatMap(UserCode.canonical) else {
                throw web.page("Sign-in failed", "The device's code is missing.", status: .badRequest)
            }
            let form = try await FormBody.decode(SessionRequest.self, from: request, context: context)
            do {
                // Only the browser that opened this device page, with its webOTT (issue 29, finding 6).
                try web.binding.check(form.webOTT, for: .device, in: request)
                let cookie = try await provider.access.openSession(form)
                return HTMLPage.redirect("/device?user_code=" + UserCode.display(canonical), cookie: web.cookie.cookie(cookie))
            } catch let error as APIError where error.status.code < 500 {
                throw web.page("Sign-in failed", error.body.message, status: error.status)
            }
        }

        routes.post("/device/confirm") { request, context in
            try SameOrigin.check(request, publicURL: web.publicURL)
            let form = try await FormBody.decode(DeviceAnswerForm.self, from: request, context: context)
            // The form first: a malformed answer is 400 with or without a session (openapi.yaml).
            guard let decision = form.decision, ["allow", "deny"].contains(decision) else {
                throw web.page("Device refused", "Choose Allow or Deny.", status: .badRequest)
            }
            guard let session = try await provider.session(cookie: web.cookie.value(in: request)) else {
                return HTMLPage.redirect("/device?user_code=" + (form.user_code.flatMap(UserCode.canonical).map(UserCode.display) ?? ""))
            }
            let from = web.address.of(request, context)
            guard
                try await provider.answerDevice(userCode: form.user_code ?? "", allow: decision == "allow", session: session, address: from)
                    != nil
            else { return page(.enter(userCode: "", error: PageStrings.table["deviceBadCode", default: ""]), status: .badRequest) }
            return page(decision == "allow" ? .allowed : .denied)
        }
        return routes
    }
}

/// The question's form: the user code and `allow` or `deny`.
struct DeviceAnswerForm: Decodable, Sendable {
    var user_code: String?
    var decision: String?
}

extension DeviceAuthorizationResponse: ResponseEncodable {}
