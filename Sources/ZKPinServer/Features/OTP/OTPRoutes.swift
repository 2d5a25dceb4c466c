import Hummingbird
import ZKPinWire

/// `POST /otp/verify`: a service registered with `--otp` checks a person's one-time code,
/// authenticated as at the token endpoint (HTTP Basic, or `client_id` and `client_secret` in
/// the body). Failed client authentications count towards the address's limit shared with the
/// OAuth endpoints (429 once used up, checked first).
enum OTPRoutes {
    static func collection(otp: OTPService, storage: StorageGateway, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let limiter = StoreRateLimiter(storage: storage)
        let rule = otp.config.limits.failedClientAuthPerAddress
        routes.post("/otp/verify") { request, context in
            let from = address.of(request, context)
            let key = "client-auth:" + from
            if try await limiter.exhausted(key, rule, now: otp.clock.now) {
                throw APIError(.rateLimited, "too many failed client authentications from this address; try again in \(rule.window) seconds")
            }
            let body = try await request.decode(as: OTPVerifyRequest.self, context: context)
            let service: OIDCClient
            do { service = try await authenticate(body, header: request.headers[.authorization], storage: storage) } catch let error as APIError {
                if error.status == .unauthorized { _ = try await limiter.hit(key, rule, now: otp.clock.now) }
                throw error
            }
            return try await otp.verify(user: body.user, otp: body.otp, service: service, address: from)
        }
        return routes
    }

    /// The token endpoint's client authentication, its refusals as this API's errors.
    static func authenticate(_ body: OTPVerifyRequest, header: String?, storage: StorageGateway) async throws(APIError) -> OIDCClient {
        do throws(OAuthError) {
            let basic = try BasicCredentials.parse(header)
            return try await ClientCredentials.authenticate(id: body.clientId, secret: body.clientSecret, basic: basic) { id in
                try await storage("read OTP service") { try await $0.oidcClient(id: id) }
            }
        } catch {
            if error == .temporarilyUnavailable { throw .storageUnavailable }
            if error.status == 401 { throw APIError(.invalidClient, error.description) }
            throw APIError.bad(error.description)
        }
    }
}
