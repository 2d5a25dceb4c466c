import ZKPinWire

/// Pass 2 with `OTP` (`LoginRoutes`' one-time code answer): the M-Pin login of `LoginService`,
/// then a code from `OTPService` instead of a signed-in page.
struct OneTimeCodeLogin: Sendable {
    let login: LoginService
    let otp: OTPService

    /// `POST /rps/pass2` with `OTP`: a one-time code for a password-only system. The login
    /// runs exactly as pass 2 and `/rps/authenticate` (the same checks, the same attempt count:
    /// a wrong PIN counts towards the block and gives no code, with the answers of
    /// `/rps/authenticate`), and only a verified proof of an active identity gets a code. The
    /// service is resolved before anything is consumed. No authOTT leaves the server and no
    /// page is signed in, so an access code is refused.
    func pass2(_ request: Pass2Request, address: String) async throws(APIError) -> OTPResponse {
        guard request.wid == "0" else { throw APIError.bad("a one-time code is not for a page login: send WID \"0\"") }
        if let name = request.service, name.isEmpty || name.utf8.count > 256 {
            throw APIError.bad("service must name a one-time code service (1 to 256 characters)")
        }
        var plain = request
        plain.otp = false
        plain.complete = nil
        let input = try LoginService.Pass2Input(plain)  // the form first: bad input is 400 whatever the services
        let service = try await otp.service(named: request.service)
        let identity = try await login.verifiedWithoutToken(input, address: address, successAudit: "login_pass2")
        return try await otp.issue(userId: identity.userId, mpinId: identity.mpinId, service: service, address: address)
    }
}
