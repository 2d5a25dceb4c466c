import Hummingbird
import ZKPinWire

/// The M-Pin login: `POST /rps/pass1`, `/rps/pass2` (which finishes the login itself when the
/// client asks, `complete`, or answers a one-time code, `OTP`, through `oneTimeCode` when the
/// server has the feature), `/rps/authenticate`.
enum LoginRoutes {
    /// Pass 2 with `OTP`: the one-time code feature's answer for a verified proof.
    typealias OneTimeCodePass2 = @Sendable (Pass2Request, _ address: String) async throws -> OTPResponse

    static func collection(login: LoginService, address: ClientAddress, oneTimeCode: OneTimeCodePass2?) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.post("/rps/pass1") { request, context in
            let body = try await request.decode(as: Pass1Request.self, context: context)
            return try await login.pass1(body, address: address.of(request, context))
        }
        routes.post("/rps/pass2") { request, context -> Response in
            let body = try await request.decode(as: Pass2Request.self, context: context)
            let from = address.of(request, context)
            if body.otp == true {
                guard let oneTimeCode else { throw APIError.bad("this server gives no one-time codes") }
                return try await oneTimeCode(body, from).response(from: request, context: context)
            }
            if body.complete == true {
                return try await login.pass2Completing(body, address: from).response(from: request, context: context)
            }
            return try await login.pass2(body, address: from).response(from: request, context: context)
        }
        routes.post("/rps/authenticate") { request, context in
            let body = try await request.decode(as: AuthenticateRequest.self, context: context)
            return try await login.authenticate(body, address: address.of(request, context))
        }
        return routes
    }
}
