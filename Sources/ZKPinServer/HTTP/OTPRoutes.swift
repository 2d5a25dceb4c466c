import Hummingbird
import ZKPinWire

/// `POST /otp/verify`: a service registered with `--otp` checks a person's one-time code,
/// authenticated as at the token endpoint (HTTP Basic, or `client_id` and `client_secret` in
/// the body).
enum OTPRoutes {
    static func collection(otp: OTPService, storage: StorageGateway, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.post("/otp/verify") { request, context in
            let body = try await request.decode(as: OTPVerifyRequest.self, context: context)
            let service = try await authenticate(body, header: request.headers[.authorization], storage: storage)
            return try await otp.verify(user: body.user, otp: body.otp, service: service, address: address.of(request, context))
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
