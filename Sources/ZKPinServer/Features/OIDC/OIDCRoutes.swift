import Hummingbird

/// The HTTP face of the OpenID Connect provider, one route collection per endpoint group:
/// discovery and keys, authorize (with the access-code page), token, userinfo (logout is the SignOut feature's).
/// Errors answer for themselves (`OAuthError`, `BearerChallenge`, `ProviderPageError`).
enum OIDCRoutes {
    /// Adds the provider's routes; the features add theirs with the answer (their grants are
    /// given here, so that the token endpoint and discovery know them).
    @discardableResult
    static func add(
        to router: Router<AppContext>, rp: RelyingParty, pages: Pages, dataDirectory: String, extensionGrants: [ExtensionGrant]
    ) throws -> ProviderWeb {
        let provider = OIDCProvider(rp: rp, keys: try KeyRing(dataDirectory: dataDirectory), extensionGrants: extensionGrants)
        let web = ProviderWeb(
            provider: provider, messages: try OIDCPages(), serviceName: rp.config.serviceName, publicURL: rp.config.publicURL,
            cookie: SessionCookie(config: rp.config), binding: PageBinding(config: rp.config, key: rp.links.key),
            address: ClientAddress(trustedProxy: rp.config.trustedProxy))
        router.addRoutes(OIDCDiscoveryRoutes.collection(provider))
        router.addRoutes(AuthorizeRoutes.collection(web, pages: pages))
        router.addRoutes(TokenRoutes.collection(web))
        router.addRoutes(UserInfoRoutes.collection(provider, address: web.address))
        return web
    }
}

/// What the provider's browser-facing routes share: the provider, its pages, the session
/// cookie and the client's address.
struct ProviderWeb: Sendable {
    let provider: OIDCProvider
    let messages: OIDCPages
    let serviceName: String
    let publicURL: String
    let cookie: SessionCookie
    /// Binds the authorization page's completion to the browser that opened it.
    let binding: PageBinding
    let address: ClientAddress

    /// The provider's message page as an error to throw.
    func page(_ title: String, _ message: String, status: HTTPResponse.Status, cookie: Cookie? = nil) -> ProviderPageError {
        ProviderPageError(html: messages.messagePage(serviceName: serviceName, title: title, message: message), status: status, cookie: cookie)
    }
}

/// `/.well-known/openid-configuration` and `/oauth/jwks`, cacheable for five minutes.
enum OIDCDiscoveryRoutes {
    static func collection(_ provider: OIDCProvider) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.get("/.well-known/openid-configuration") { _, _ in
            OAuthJSON(value: ProviderMetadata(provider: provider), cacheable: true)
        }
        routes.get("/oauth/jwks") { _, _ in
            OAuthJSON(value: JWKSet(keys: try provider.keys.published(now: provider.now)), cacheable: true)
        }
        return routes
    }
}

/// `/oauth/userinfo` (GET and POST) with a bearer access token (RFC 6750).
enum UserInfoRoutes {
    static func collection(_ provider: OIDCProvider, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        @Sendable func userinfo(_ request: Request, _ context: AppContext) async throws -> OAuthJSON<UserInfo> {
            guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { throw BearerChallenge() }
            let key = "bearer:" + address.of(request, context)
            try await provider.checkFailures(key, provider.limits.invalidBearersPerAddress, address: address.of(request, context))
            let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            guard let info = try await provider.userInfo(accessToken: token) else {
                try await provider.countFailure(key, provider.limits.invalidBearersPerAddress)
                throw BearerChallenge(error: "invalid_token")
            }
            return OAuthJSON(value: info)
        }
        routes.get("/oauth/userinfo", use: userinfo)
        routes.post("/oauth/userinfo", use: userinfo)
        return routes
    }
}

/// `/oauth/token` (the code and refresh grants, and those the features add), and the rule of
/// every client-authenticated endpoint (the features' too): an urlencoded form; failed client
/// authentications count towards the address's limit.
enum TokenRoutes {
    static func collection(_ web: ProviderWeb) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let provider = web.provider
        routes.post("/oauth/token") { request, context in
            try await clientAuthenticated(web, request, context, TokenParameters.self) { params, basic, from in
                try await provider.token(params, basic: basic, address: from)
            }
        }
        routes.post("/oauth/revoke") { request, context in
            try await clientAuthenticated(web, request, context, TokenHintParameters.self) { params, basic, from in
                try await provider.revoke(params, basic: basic, address: from)
                return RevocationAnswer()
            }
        }
        routes.post("/oauth/introspect") { request, context in
            try await clientAuthenticated(web, request, context, TokenHintParameters.self) { params, basic, _ in
                try await provider.introspect(params, basic: basic)
            }
        }
        return routes
    }

    /// Decodes the form, reads Basic credentials and runs `body`; refusals are counted (401s
    /// towards the address's client-authentication limit) and audited.
    static func clientAuthenticated<Parameters: Decodable, Answer: ResponseEncodable>(
        _ web: ProviderWeb, _ request: Request, _ context: AppContext, _ type: Parameters.Type,
        _ body: (Parameters, BasicCredentials?, String) async throws -> Answer
    ) async throws -> OAuthJSON<Answer> {
        let provider = web.provider
        let from = web.address.of(request, context)
        let key = "client-auth:" + from
        do {
            try await provider.checkFailures(key, provider.limits.failedClientAuthPerAddress, address: from)
            let params: Parameters
            do { params = try await OAuthForm.decode(type, from: request, context: context, allowQuery: false) } catch {
                throw OAuthError.invalidRequest(
                    (error as? OAuthForm.Malformed)?.reason ?? "the body must be an application/x-www-form-urlencoded form, each parameter once")
            }
            let basic = try BasicCredentials.parse(request.headers[.authorization])
            return OAuthJSON(value: try await body(params, basic, from))
        } catch let error as OAuthError {
            if error.statusCode == 429 { throw error }  // refused and audited by checkFailures
            if error.statusCode == 401 { try await provider.countFailure(key, provider.limits.failedClientAuthPerAddress) }
            // Polling answers are the normal course of a CIBA grant, not refusals.
            if !["authorization_pending", "slow_down"].contains(error.code) { await provider.refused(error, clientId: nil, address: from) }
            throw error
        }
    }
}
