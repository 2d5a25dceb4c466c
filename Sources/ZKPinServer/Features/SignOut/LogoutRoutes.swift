import Hummingbird

/// `/oauth/logout` (GET and POST, OpenID Connect RP-Initiated Logout 1.0). Without an
/// id_token_hint of the signed-in person anyone's page could sign a visitor out, so the person
/// confirms first (the answer is a same-origin post of the confirmation form). The sites the
/// session signed in to are told: by a logout token (back-channel, `BackchannelLogouts`) or by
/// a frame of the "Signed out" page (front-channel).
enum LogoutRoutes {
    static func collection(_ web: ProviderWeb, sites: SiteSignOut) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let provider = web.provider

        @Sendable func logout(_ request: Request, _ context: AppContext) async throws -> Response {
            let params: LogoutParameters
            do { params = try await OAuthForm.decode(LogoutParameters.self, from: request, context: context, allowQuery: true) } catch {
                let reason = (error as? OAuthForm.Malformed)?.reason.map { " (\($0))" } ?? ""
                throw web.page("Sign-out refused", "The sign-out request is malformed\(reason).", status: .badRequest)
            }
            // `confirm` is "yes" or absent (openapi.yaml): anything else is a malformed request,
            // not a silent "ask again".
            if let confirm = params.confirm, confirm != "yes" {
                throw web.page("Sign-out refused", "The sign-out request is malformed (confirm must be \"yes\").", status: .badRequest)
            }
            let target: String?, hintSubject: String?
            do { (target, hintSubject) = try await provider.logoutTarget(params) } catch let error as AuthorizationPageError {
                throw web.page("Sign-out refused", error.message, status: .badRequest)
            }
            // A hint signs out without asking only when it names the session's own person:
            // anyone's ID token must not sign this browser's person out from another site.
            let session = try await provider.session(cookie: web.cookie.value(in: request))
            let hinted = hintSubject != nil && (session == nil || session.map { provider.subject(userId: $0.userId) } == hintSubject)
            let confirmed: Bool
            do {
                try SameOrigin.check(request, publicURL: web.publicURL)
                confirmed = request.method == .post && params.confirm == "yes"
            } catch {
                confirmed = false  // a cross-site post is asked again, not refused
            }
            if !hinted && !confirmed {
                let fields = [("client_id", params.client_id), ("post_logout_redirect_uri", params.post_logout_redirect_uri), ("state", params.state)]
                    .compactMap { key, value in value.map { ["name": key, "value": $0] } }
                return HTMLPage.response(web.messages.confirmLogoutPage(serviceName: web.serviceName, fields: fields))
            }
            let ended = try await provider.endSession(
                cookie: web.cookie.value(in: request), address: web.address.of(request, context), sites: sites)
            let frames = FrontchannelFrames(ended, issuer: provider.issuer)
            if let target, frames.sources.isEmpty { return HTMLPage.redirect(target, cookie: web.cookie.removal()) }
            let also = frames.sites.isEmpty ? "" : " and of " + frames.sites.joined(separator: ", ")
            var response = HTMLPage.response(
                web.messages.signedOutPage(
                    serviceName: web.serviceName, message: "You are signed out of \(web.serviceName)\(also).", frames: frames.sources,
                    continueURL: target),
                extraPolicy: frames.policyDirective)
            response.setCookie(web.cookie.removal())
            return response
        }
        routes.get("/oauth/logout", use: logout)
        routes.post("/oauth/logout", use: logout)
        return routes
    }
}
