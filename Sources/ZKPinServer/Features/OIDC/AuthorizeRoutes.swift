import Hummingbird
import ZKPinWire

/// `/oauth/authorize` (GET and POST): a session answers at once, otherwise the access-code page
/// runs the login and posts to `/oauth/authorize/complete`. Errors about the client or its
/// redirect URI are pages (never redirected to an unverified URI); the rest are redirects.
enum AuthorizeRoutes {
    static func collection(_ web: ProviderWeb, pages: Pages) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let provider = web.provider

        @Sendable func authorize(_ request: Request, _ context: AppContext) async throws -> Response {
            let from = web.address.of(request, context)
            let params: AuthorizationParameters
            do { params = try await OAuthForm.decode(AuthorizationParameters.self, from: request, context: context, allowQuery: true) } catch {
                await provider.refused(.invalidRequest("malformed authorization request"), clientId: nil, address: from)
                let reason = (error as? OAuthForm.Malformed)?.reason ?? "a parameter given twice, or not a form"
                throw web.page("Sign-in request refused", "The sign-in request is malformed (\(reason)).", status: .badRequest)
            }
            let client: OIDCClient, redirectURI: String
            do { (client, redirectURI) = try await AuthorizationValidation.client(params, lookup: provider.client) } catch let error
                as AuthorizationPageError
            {
                await provider.refused(.invalidRequest(error.message), clientId: params.client_id, address: from)
                throw web.page("Sign-in request refused", error.message, status: .badRequest)
            }
            let valid: ValidAuthorization
            do { valid = try AuthorizationValidation.rest(params, client: client, redirectURI: redirectURI) } catch {
                return HTMLPage.redirect(
                    await provider.errorRedirect(error, redirectURI: redirectURI, state: params.state, clientId: client.id, address: from))
            }
            if let session = try await provider.session(cookie: web.cookie.value(in: request)), provider.sessionSuffices(session, for: valid) {
                return HTMLPage.redirect(
                    try await provider.issueCode(
                        clientId: client.id, redirectURI: redirectURI, scope: valid.scope, state: valid.state, nonce: valid.nonce,
                        codeChallenge: valid.codeChallenge, userId: session.userId, mpinId: session.mpinId, authTime: session.created,
                        sid: OIDCProvider.sid(sessionHash: session.hash), address: from))
            }
            if valid.noPrompt {
                return HTMLPage.redirect(
                    await provider.errorRedirect(
                        .loginRequired("no ZKPin session"), redirectURI: redirectURI, state: valid.state, clientId: client.id, address: from))
            }
            let browser = web.binding.browser(of: request)
            let access = try await provider.startLogin(valid) { web.binding.webOTT(.authorize, browser: browser) }
            var response = HTMLPage.response(
                pages.loginPage(
                    serviceName: web.serviceName, accessNumber: access.accessNumber, webOTT: access.webOTT,
                    ttl: access.ttlSeconds, qrUrl: access.qrUrl, clientName: client.name,
                    action: "/oauth/authorize/complete"))
            response.setCookie(web.binding.cookie(browser))
            return response
        }
        routes.get("/oauth/authorize", use: authorize)
        routes.post("/oauth/authorize", use: authorize)

        // The access-code page posts here (instead of /session) once `zkpin login` succeeded.
        routes.post("/oauth/authorize/complete") { request, context in
            try SameOrigin.check(request, publicURL: web.publicURL)
            let form = try await FormBody.decode(SessionRequest.self, from: request, context: context)
            do {
                // Only the browser that opened this authorization page, and only its webOTT
                // (a sign-in page's cannot complete an authorization), before anything is consumed.
                try web.binding.check(form.webOTT, for: .authorize, in: request)
                let (cookie, redirect) = try await provider.completeLogin(
                    webOTT: form.webOTT, authOTT: form.authOTT, address: web.address.of(request, context))
                return HTMLPage.redirect(redirect, cookie: web.cookie.cookie(cookie))
            } catch let signedIn as OIDCProvider.SignedInWithoutRequest {
                throw web.page(
                    "Signed in", "You are signed in, but the application's request has expired: go back to it and sign in again.",
                    status: .badRequest, cookie: web.cookie.cookie(signedIn.cookie))
            } catch let error as APIError where error.status.code < 500 {
                throw web.page("Sign-in failed", error.body.message, status: error.status)
            }
        }
        return routes
    }
}
