import Foundation
import ZKPinProtocol
import ZKPinWire

extension RelyingParty {
    /// The identity for a login step: 403 unknown or revoked, 410 blocked.
    func loginIdentity(_ mpinId: String) async throws(APIError) -> Identity {
        let found: Identity?
        do { found = try await store.identity(mpinId: mpinId) } catch { throw APIError(.internalError, "storage failed") }
        guard let identity = found else { throw APIError(.identityNotAuthorized, "unknown identity") }
        switch identity.state {
        case .active: return identity
        case .blocked: throw APIError(.blocked, "this identity is blocked; register again")
        case .revoked: throw APIError(.identityNotAuthorized, "this identity is revoked")
        }
    }

    /// `POST /rps/pass1`: records (mpinId, U, UT, y) under a single-use challenge.
    public func pass1(_ request: Pass1Request) async throws(APIError) -> Pass1Response {
        guard request.pass == 1 else { throw APIError.bad("pass must be 1") }
        _ = try idBytes(request.mpinId)
        _ = try await loginIdentity(request.mpinId)
        let u = try hexField(request.u, "U")
        var ut: [UInt8]? = nil
        // The server's setting decides: a client cannot skip the permit by leaving UT out.
        if config.usePermits {
            guard let text = request.ut else { throw APIError.bad("UT is required: this server uses time permits") }
            ut = try hexField(text, "UT")
        } else if request.ut != nil {
            throw APIError.bad("UT is refused: this server does not use time permits")
        }
        do {
            try suite.validateG1(u, field: "U")
            if let ut { try suite.validateG1(ut, field: "UT") }
        } catch { throw APIError.bad("\(error)") }
        let y = suite.randomScalar()
        let created = now
        let challenge = Challenge(id: Tokens.fresh(bytes: 16), mpinId: request.mpinId, u: u, ut: ut, y: y,
                                  date: config.usePermits ? UTCDay.number(unixSeconds: created) : 0,
                                  created: created, expires: created + config.challengeTTL)
        do { try await store.insertChallenge(challenge) } catch { throw APIError(.internalError, "storage failed") }
        return Pass1Response(y: Hex.encode(y), challenge: challenge.id)
    }

    /// `POST /rps/pass2`: access code, state, challenge and an attempt reservation are checked
    /// before any pairing; the verdict waits under a fresh authOTT for `/rps/authenticate`.
    public func pass2(_ request: Pass2Request, address: String) async throws(APIError) -> Pass2Response {
        guard request.pass == 2 else { throw APIError.bad("pass must be 2") }
        if request.otp == true { throw APIError.bad("one-time passwords are not offered") }
        _ = try idBytes(request.mpinId)
        let v = try hexField(request.v, "V")
        let code: String? = request.wid == "0" ? nil : request.wid
        if let code { try await presentAccessCode(code, address: address) }
        let identity = try await loginIdentity(request.mpinId)

        let consumed: Challenge?
        do { consumed = try await store.consumeChallenge(id: request.challenge, mpinId: request.mpinId, now: now) }
        catch { throw APIError(.internalError, "storage failed") }
        guard let challenge = consumed else { throw APIError(.noChallenge, "no live pass-1 challenge: run pass 1 again") }

        let invalidKey = "invalid:\(request.mpinId):\(address)"
        if await limiter.exhausted(invalidKey, config.limits.invalidTokensPerIdentityAndAddress, now: now) {
            throw APIError(.rateLimited, "too many failed logins from this address; try again later")
        }
        let reservation: AttemptReservation
        do { reservation = try await store.reserveAttempt(mpinId: request.mpinId, maxAttempts: config.maxAttempts, now: now, hold: config.attemptHold) }
        catch { throw APIError(.internalError, "storage failed") }
        switch reservation {
        case .reserved: break
        case .blocked: throw APIError(.blocked, "this identity is blocked; register again")
        case .revoked, .unknown: throw APIError(.identityNotAuthorized, "unknown or revoked identity")
        case .busy: throw APIError(.rateLimited, "other logins of this identity are in progress; try again")
        }

        let verification = await verify(challenge, v: v)
        metrics.verifications.increment()
        let settlement: AttemptSettlement
        if verification.accepted { settlement = .success(now: now) }
        else if verification.pinError != 0 { settlement = .wrongPIN(maxAttempts: config.maxAttempts) }
        else { settlement = .neutral }
        let settled: AttemptResult?
        do { settled = try await store.settleAttempt(mpinId: request.mpinId, settlement) }
        catch { throw APIError(.internalError, "storage failed") }
        let after = settled ?? AttemptResult(failedAttempts: identity.failedAttempts, state: identity.state)

        let outcome: AuthToken.Outcome
        switch settlement {
        case .success:
            outcome = .success
            await audit("login_pass2", userId: identity.userId, mpinId: identity.mpinId, address: address)
        case .wrongPIN:
            outcome = after.state == .blocked ? .blocked : .wrongPIN
            metrics.wrongPINs.increment()
            // The PIN error itself is never logged: only that the PIN was wrong.
            await audit("wrong_pin", userId: identity.userId, mpinId: identity.mpinId, address: address,
                        "failed=\(after.failedAttempts)")
            if after.state == .blocked { await audit("block", userId: identity.userId, mpinId: identity.mpinId, address: address) }
        case .neutral:
            outcome = .invalidToken
            metrics.invalidTokens.increment()
            _ = await limiter.hit(invalidKey, config.limits.invalidTokensPerIdentityAndAddress, now: now)
            await audit("invalid_token", userId: identity.userId, mpinId: identity.mpinId, address: address)
        }

        let authOTT = Tokens.fresh()
        let hash = Tokens.hash(authOTT)
        if outcome == .success, let code {
            let marked = (try? await store.markUser(code: code, mpinId: identity.mpinId, userId: identity.userId,
                                                    authOTTHash: hash, now: now)) ?? false
            guard marked else { throw APIError(.accessCodeExpired, "the access code expired or was used meanwhile") }
        }
        let token = AuthToken(hash: hash, mpinId: identity.mpinId, userId: identity.userId, outcome: outcome,
                              attemptsLeft: max(0, config.maxAttempts - after.failedAttempts),
                              accessCode: code, expires: now + config.authTokenTTL)
        do { try await store.insertAuthToken(token) } catch { throw APIError(.internalError, "storage failed") }
        return Pass2Response(authOTT: authOTT)
    }

    /// The pairing check, with the previous day's permit during the first hour of a UTC day.
    /// The first check goes through the batch verifier (with the other logins waiting now).
    func verify(_ c: Challenge, v: [UInt8]) async -> ServerVerification {
        let id = Hex.decode(c.mpinId) ?? []
        let first = await verifier.verify(ServerVerifyInput(id: id, date: c.date, u: c.u, ut: c.ut, v: v, y: c.y))
        guard !first.accepted, c.date > 1, c.created - c.date * 86_400 < 3600 else { return first }
        let previous = suite.serverVerify(id: id, date: c.date - 1, serverSecret: serverSecret, u: c.u, ut: c.ut, v: v, y: c.y)
        return previous.accepted || previous.pinError != 0 ? previous : first
    }

    /// Marks an access code as presented (412 for an unknown, expired or used one; rate-limited
    /// per address).
    func presentAccessCode(_ code: String, address: String) async throws(APIError) {
        let rule = config.limits.wrongCodesPerAddress
        if await limiter.exhausted("code:\(address)", rule, now: now) {
            throw APIError(.rateLimited, "too many wrong access codes from this address; wait a minute")
        }
        let session = AccessCode.isValid(code) ? (try? await store.presentCode(code, now: now)) ?? nil : nil
        guard session != nil else {
            _ = await limiter.hit("code:\(address)", rule, now: now)
            throw APIError(.accessCodeExpired, "unknown, expired or used access code")
        }
    }

    /// `POST /rps/authenticate`: consumes the authOTT and answers the verdict of pass 2.
    public func authenticate(_ request: AuthenticateRequest, address: String) async throws(APIError) -> AuthenticateResponse {
        let consumed: AuthToken?
        do { consumed = try await store.consumeAuthToken(hash: Tokens.hash(request.mpinResponse.authOTT), now: now) }
        catch { throw APIError(.internalError, "storage failed") }
        guard let token = consumed else { throw APIError(.invalidToken, "unknown, expired or used authOTT") }
        let identity = try? await store.identity(mpinId: token.mpinId)
        if identity?.state == .revoked || identity == nil { throw APIError(.identityNotAuthorized, "this identity is revoked") }
        switch token.outcome {
        case .wrongPIN:
            // The page of the access code shows it live; the code stays usable until it expires.
            if let code = token.accessCode { _ = try? await store.markWrongPIN(code: code, now: now) }
            throw APIError(.wrongPIN, "wrong PIN", attemptsLeft: token.attemptsLeft)
        case .blocked: throw APIError(.blocked, "wrong PIN: this identity is now blocked; register again")
        case .invalidToken: throw APIError(.invalidToken, "the login proof is not valid")
        case .success: break
        }
        if identity?.state == .blocked { throw APIError(.blocked, "this identity is blocked") }
        if let code = token.accessCode {
            let marked = (try? await store.markAuthenticated(code: code, authOTTHash: token.hash, now: now)) ?? false
            guard marked else { throw APIError(.accessCodeExpired, "the access code expired before the login finished") }
            guard await waitForTakeUp(code: code) else {
                await audit("login_timeout", userId: token.userId, mpinId: token.mpinId, address: address)
                throw APIError(.authenticationTimeout, "the browser did not take the login up")
            }
        }
        await audit("login", userId: token.userId, mpinId: token.mpinId, address: address)
        metrics.logins.increment()
        return AuthenticateResponse(userId: token.userId)
    }

    /// Polls the store (so it works across instances) until the page saw `authenticate`.
    func waitForTakeUp(code: String) async -> Bool {
        let deadline = Date().addingTimeInterval(config.takeUpWait)
        while true {
            if let s = try? await store.accessSession(code: code), s.takenUp { return true }
            if Date() >= deadline || Task.isCancelled { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
