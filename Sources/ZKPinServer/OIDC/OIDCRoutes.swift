import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ZKPinWire

/// The HTTP face of the OpenID Connect provider: discovery, JWKS, authorize (with the
/// access-code page), token, userinfo, logout.
enum OIDCRoutes {
    static func add(to router: Router<AppContext>, rp: RelyingParty, pages: Pages, dataDirectory: String) throws {
        let provider = OIDCProvider(rp: rp, keys: try KeyRing(dataDirectory: dataDirectory))
        let messages = try OIDCPages()
        let sessionCookie = SessionCookie(config: rp.config)
        let name = rp.config.serviceName
        let clientAddress = ClientAddress(trustedProxy: rp.config.trustedProxy)
        @Sendable func address(_ request: Request, _ context: AppContext) -> String { clientAddress.of(request, context) }
        @Sendable func page(_ title: String, _ message: String, status: HTTPResponse.Status) -> Response {
            HTMLPage.response(messages.messagePage(serviceName: name, title: title, message: message), status: status)
        }

        router.get("/.well-known/openid-configuration") { _, _ in
            OAuthHTTP.json(ProviderMetadata(issuer: provider.issuer), cache: "public, max-age=300")
        }
        router.get("/oauth/jwks") { _, _ in
            OAuthHTTP.json(JWKSet(keys: try provider.keys.published(now: provider.now)), cache: "public, max-age=300")
        }

        @Sendable func authorize(_ request: Request, _ context: AppContext) async throws -> Response {
            let from = address(request, context)
            let params: AuthorizationParameters
            do {
                let text = request.method == .post ? try await OAuthHTTP.formBody(request) : (request.uri.query ?? "")
                params = try URLEncodedFormDecoder().decode(AuthorizationParameters.self, from: text)
            } catch {
                await provider.refused(.invalidRequest("malformed authorization request"), clientId: nil, address: from)
                return page(
                    "Sign-in request refused", "The sign-in request is malformed (a parameter given twice, or not a form).",
                    status: .badRequest)
            }
            let client: OIDCClient, redirectURI: String
            do { (client, redirectURI) = try await AuthorizationValidation.client(params, lookup: provider.client) } catch let error
                as AuthorizationPageError
            {
                await provider.refused(.invalidRequest(error.message), clientId: params.client_id, address: from)
                return page("Sign-in request refused", error.message, status: .badRequest)
            }
            let valid: ValidAuthorization
            do { valid = try AuthorizationValidation.rest(params, client: client, redirectURI: redirectURI) } catch {
                return HTMLPage.redirect(
                    await provider.errorRedirect(
                        error, redirectURI: redirectURI, state: params.state,
                        clientId: client.id, address: from))
            }
            if let session = try await provider.session(cookie: sessionCookie.value(in: request)),
                provider.sessionSuffices(session, for: valid)
            {
                return HTMLPage.redirect(
                    try await provider.issueCode(
                        clientId: client.id, redirectURI: redirectURI, scope: valid.scope, state: valid.state, nonce: valid.nonce,
                        codeChallenge: valid.codeChallenge, userId: session.userId, mpinId: session.mpinId, authTime: session.created,
                        address: from))
            }
            if valid.noPrompt {
                return HTMLPage.redirect(
                    await provider.errorRedirect(
                        .loginRequired("no ZKPin session"), redirectURI: redirectURI,
                        state: valid.state, clientId: client.id, address: from))
            }
            let access = try await provider.startLogin(valid)
            return HTMLPage.response(
                pages.loginPage(
                    serviceName: name, accessNumber: access.accessNumber, webOTT: access.webOTT,
                    ttl: access.ttlSeconds, qrUrl: access.qrUrl, clientName: client.name,
                    action: "/oauth/authorize/complete"))
        }
        router.get("/oauth/authorize", use: authorize)
        router.post("/oauth/authorize", use: authorize)

        // The access-code page posts here (instead of /session) once `zkpin login` succeeded.
        router.post("/oauth/authorize/complete") { request, context in
            try SameOrigin.check(request, publicURL: rp.config.publicURL)
            let form = try await FormBody.decode(SessionRequest.self, from: request, context: context)
            do {
                let (cookie, redirect) = try await provider.completeLogin(
                    webOTT: form.webOTT, authOTT: form.authOTT,
                    address: address(request, context))
                return HTMLPage.redirect(redirect, cookie: sessionCookie.cookie(cookie))
            } catch let signedIn as OIDCProvider.SignedInWithoutRequest {
                var response = page(
                    "Signed in", "You are signed in, but the application's request has expired: go back to it and sign in again.",
                    status: .badRequest)
                response.setCookie(sessionCookie.cookie(signedIn.cookie))
                return response
            } catch let error as APIError where error.status.code < 500 {
                return page("Sign-in failed", error.body.message, status: error.status)
            }
        }

        router.post("/oauth/token") { request, context in
            let from = address(request, context)
            do {
                guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
                    throw OAuthError.invalidRequest("the body must be application/x-www-form-urlencoded")
                }
                let text = try await OAuthHTTP.formBody(request)
                let params: TokenParameters
                do { params = try URLEncodedFormDecoder().decode(TokenParameters.self, from: text) } catch {
                    throw OAuthError.invalidRequest("malformed form (a parameter given twice?)")
                }
                let basic = try BasicCredentials.parse(request.headers[.authorization])
                return OAuthHTTP.json(try await provider.token(params, basic: basic, address: from))
            } catch let error as OAuthError {
                await provider.refused(error, clientId: nil, address: from)
                return OAuthHTTP.error(error)
            } catch {
                let failure = OAuthError.invalidRequest("the request could not be read")
                await provider.refused(failure, clientId: nil, address: from)
                return OAuthHTTP.error(failure)
            }
        }

        @Sendable func userinfo(_ request: Request, _ context: AppContext) async throws -> Response {
            guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
                return OAuthHTTP.bearerChallenge(nil)
            }
            let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            do {
                guard let info = try await provider.userInfo(accessToken: token) else { return OAuthHTTP.bearerChallenge("invalid_token") }
                return OAuthHTTP.json(info)
            } catch { return OAuthHTTP.error(error) }
        }
        router.get("/oauth/userinfo", use: userinfo)
        router.post("/oauth/userinfo", use: userinfo)

        @Sendable func logout(_ request: Request, _ context: AppContext) async throws -> Response {
            let params: LogoutParameters
            do {
                let text = request.method == .post ? try await OAuthHTTP.formBody(request) : (request.uri.query ?? "")
                params = try URLEncodedFormDecoder().decode(LogoutParameters.self, from: text)
            } catch { return page("Sign-out refused", "The sign-out request is malformed.", status: .badRequest) }
            let target: String?, hinted: Bool
            do { (target, hinted) = try await provider.logoutTarget(params) } catch let error as AuthorizationPageError {
                return page("Sign-out refused", error.message, status: .badRequest)
            }
            // Without an id_token_hint anyone's page could sign a visitor out: ask first (the
            // answer is a same-origin post of the confirmation form).
            let confirmed =
                request.method == .post && params.confirm == "yes"
                && (try? SameOrigin.check(request, publicURL: rp.config.publicURL)) != nil
            if !hinted && !confirmed {
                let fields = [("client_id", params.client_id), ("post_logout_redirect_uri", params.post_logout_redirect_uri), ("state", params.state)]
                    .compactMap { key, value in value.map { ["name": key, "value": $0] } }
                return HTMLPage.response(messages.confirmLogoutPage(serviceName: name, fields: fields))
            }
            try await provider.endSession(cookie: sessionCookie.value(in: request), address: address(request, context))
            if let target { return HTMLPage.redirect(target, cookie: sessionCookie.removal()) }
            var response = page("Signed out", "You are signed out of \(name).", status: .ok)
            response.setCookie(sessionCookie.removal())
            return response
        }
        router.get("/oauth/logout", use: logout)
        router.post("/oauth/logout", use: logout)
    }
}
