import Foundation
import ZKPinProtocol
import ZKPinWire

/// `POST /rps/pass1`, `/rps/pass2` and `/rps/authenticate`: the M-Pin login. Every check that
/// can refuse a login (limits, access code, identity state, challenge, attempt reservation)
/// comes before any pairing, and the limits before anything is consumed.
struct LoginService: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let access: AccessService
    let verifier: LoginVerifier
    let audit: AuditTrail
    let metrics: ServerMetrics
    let clock: ServerClock
    let notices: BlockNotifier
    /// The holder proofs (`LinkSigner.holderProof`).
    let links: LinkSigner

    /// `POST /rps/pass1`: records (mpinId, U, UT, y) under a single-use challenge, within the
    /// per-address and per-identity-and-address limits (a stranger who knows the mpinId uses up
    /// only the count of their own address).
    func pass1(_ request: Pass1Request, address: String) async throws(APIError) -> Pass1Response {
        guard request.pass == 1 else { throw APIError.bad("pass must be 1") }
        _ = try MPinIDText.bytes(request.mpinId)
        if let wid = request.wid, wid != "0" { try AccessService.checkForm(code: wid, field: "WID") }
        let u = try MPinIDText.hexField(request.u, "U")
        var ut: [UInt8]? = nil
        // The server's setting decides: a client cannot skip the permit by leaving UT out.
        if config.usePermits {
            guard let text = request.ut else { throw APIError.bad("UT is required: this server uses time permits") }
            ut = try MPinIDText.hexField(text, "UT")
        } else if request.ut != nil {
            throw APIError.bad("UT is refused: this server does not use time permits")
        }
        try verifier.validate(u: u, ut: ut)
        let created = clock.now
        let challenge = Challenge(
            id: Tokens.fresh(bytes: 16), mpinId: request.mpinId, u: u, ut: ut, y: verifier.randomChallenge(),
            date: config.usePermits ? UTCDay.number(unixSeconds: created) : 0,
            created: created, expires: created + config.challengeTTL)
        // One transaction counts the limits, checks that the identity is active and records the
        // challenge. U and UT are validated before it: a refused point changes nothing.
        // The identity's holder (who proved the token in an earlier login) is counted in the
        // identity's own budget, never in the address's counts that a stranger behind the same
        // address (a NAT, an office, a carrier) can use up (issue 29, finding 1).
        let holder = request.holder.map { Tokens.equal(links.holderProof(mpinId: request.mpinId), $0.lowercased()) } ?? false
        let limits =
            holder
            ? [CountedEvent(key: "pass1-holder:\(request.mpinId)", rule: config.limits.pass1PerHolder)]
            : [
                CountedEvent(key: "pass1-addr:\(address)", rule: config.limits.pass1PerAddress),
                CountedEvent(key: "pass1:\(request.mpinId):\(address)", rule: config.limits.pass1PerIdentityAndAddress)
            ]
        let admission = try await storage("insert challenge") { try await $0.admitPass1(challenge, counting: limits, now: created) }
        guard case .identity(let state) = admission else {
            throw APIError(
                .rateLimited,
                holder ? "too many logins of this identity started; wait a minute" : "too many logins started from this address; wait a minute")
        }
        switch state {
        case .active: return Pass1Response(y: Hex.encode(challenge.y), challenge: challenge.id)
        case nil:
            try await showRefusal(on: request.wid, .refused, address: address)
            throw APIError(.identityNotAuthorized, "unknown identity")
        case .blocked:
            try await showRefusal(on: request.wid, .blocked, address: address)
            throw APIError(.blocked, "this identity is blocked; register again")
        case .revoked:
            try await showRefusal(on: request.wid, .refused, address: address)
            throw APIError(.identityNotAuthorized, "this identity is revoked")
        }
    }

    /// A pass 1 that names its page's access code and is refused: the page says so too (as
    /// pass 2 does), so the page and the client never disagree. The code goes through the same
    /// presentation check as pass 2's (live, rate-limited per address); a code that fails it is
    /// left alone and the refusal stands.
    func showRefusal(on wid: String?, _ outcome: AccessSession.Status, address: String) async throws(APIError) {
        guard let code = wid, code != "0" else { return }
        do { try await access.present(code: code, address: address) } catch {
            if error.status == .serviceUnavailable { throw error }
            return
        }
        try await access.markRefused(code: code, outcome)
    }

    /// What pass 2 asks, checked for form before anything else.
    struct Pass2Input {
        var mpinId: String
        var v: [UInt8]
        var accessCode: String?
        var challenge: String

        init(_ request: Pass2Request) throws(APIError) {
            guard request.pass == 2 else { throw APIError.bad("pass must be 2") }
            // OneTimeCodeLogin clears the flag once it has checked its own fields.
            if request.otp == true { throw APIError.bad("a one-time code request is answered by the one-time code login") }
            _ = try MPinIDText.bytes(request.mpinId)
            // The form first (openapi.yaml: 32 lowercase hex digits), before the access code is
            // looked at: a malformed request is 400 whatever state the page's code is in.
            guard let challenge = request.challenge, challenge.utf8.count == 32,
                challenge.utf8.allSatisfy({
                    ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
                })
            else { throw APIError.bad("challenge is required: send the id (32 hex digits) that pass 1 answered") }
            mpinId = request.mpinId
            v = try MPinIDText.hexField(request.v, "V")
            if request.wid != "0" { try AccessService.checkForm(code: request.wid, field: "WID") }
            accessCode = request.wid == "0" ? nil : request.wid
            self.challenge = challenge
        }
    }

    /// `POST /rps/pass2`: access code, state, challenge and an attempt reservation are checked
    /// before any pairing; the verdict waits under a fresh authOTT for `/rps/authenticate`.
    /// The store work is two transactions: take the challenge and reserve an attempt; settle
    /// the attempt and store the verdict.
    ///
    /// The invalid-token limit is applied after the verdict, to invalid tokens only: checked
    /// before, a stranger behind the same address (a NAT, a proxy) who knows an mpinId could
    /// use it up and shut the owner out. The pairings a stranger can cause are bounded by the
    /// pass-1 limits instead (each pass 2 needs its own pass-1 challenge).
    func pass2(_ request: Pass2Request, address: String) async throws(APIError) -> Pass2Response {
        let input = try Pass2Input(request)
        let invalidKey = "invalid:\(input.mpinId):\(address)"
        if let code = input.accessCode { try await access.present(code: code, address: address) }
        let (challenge, identity) = try await start(input)
        let verification = await verifier.verify(challenge, v: input.v)
        return try await finish(identity, verification, input: input, address: address, invalidKey: invalidKey)
    }

    /// `POST /rps/pass2` with `complete`: pass 2 and `/rps/authenticate` in one request, the
    /// same checks, counts and answers as the two (a login of two requests instead of three;
    /// M-Pin clients that do not ask keep `/rps/authenticate`). Without an access code no
    /// authOTT is stored at all: the verdict is settled and answered in one transaction. With
    /// one, the page's states move as they do for the two requests.
    func pass2Completing(_ request: Pass2Request, address: String) async throws(APIError) -> AuthenticateResponse {
        let input = try Pass2Input(request)
        if input.accessCode != nil {
            let answer = try await pass2(request, address: address)
            return try await authenticate(AuthenticateRequest(authOTT: answer.authOTT), address: address)
        }
        let identity = try await verifiedWithoutToken(input, address: address, successAudit: "login")
        metrics.logins.increment()
        return AuthenticateResponse(userId: identity.userId, holder: links.holderProof(mpinId: identity.mpinId))
    }

    /// Pass 2 without an access code that stores no authOTT (a completing login, a one-time
    /// code): the verdict settled in one transaction and refused as `/rps/authenticate` refuses
    /// it (a concurrent block or revocation wins); the identity when the proof was verified.
    func verifiedWithoutToken(_ input: Pass2Input, address: String, successAudit: String) async throws(APIError) -> Identity {
        let (challenge, identity) = try await start(input)
        let verification = await verifier.verify(challenge, v: input.v)
        let verdict = try await settle(
            identity, verification, input: input, address: address, invalidKey: "invalid:\(input.mpinId):\(address)",
            issueToken: false, successAudit: successAudit)
        if let refusal = Self.refusal(verdict.outcome, after: verdict.after, maxAttempts: config.maxAttempts) { throw refusal }
        return identity
    }

    /// How a settled verdict is refused, as `/rps/authenticate` refuses it (a concurrent block
    /// or revocation wins over a success); nil when it was verified and the identity is still
    /// active. Approvals answer their signatures the same way.
    static func refusal(_ outcome: AuthToken.Outcome, after: AttemptResult, maxAttempts: Int) -> APIError? {
        switch outcome {
        case .success where after.state == .active: return nil
        case .success where after.state == .blocked: return APIError(.blocked, "this identity is blocked")
        case .success: return APIError(.identityNotAuthorized, "this identity is revoked")
        case .wrongPIN where after.state == .blocked, .blocked:
            return APIError(.blocked, "wrong PIN: this identity is now blocked; register again")
        case .wrongPIN:
            return APIError(.wrongPIN, "wrong PIN", attemptsLeft: max(0, maxAttempts - after.failedAttempts))
        case .invalidToken: return APIError(.invalidToken, "the proof is not valid")
        }
    }

    /// Consumes exactly the named challenge and reserves an attempt.
    func start(_ input: Pass2Input) async throws(APIError) -> (Challenge, Identity) {
        let now = clock.now
        let started = try await storage("start login") {
            try await $0.startLogin(
                challengeID: input.challenge, mpinId: input.mpinId, now: now,
                maxAttempts: config.maxAttempts, hold: config.attemptHold)
        }
        switch started {
        case .started(let challenge, let identity): return (challenge, identity)
        case .noChallenge: throw APIError(.noChallenge, "no live pass-1 challenge: run pass 1 again")
        case .refused(.blocked):
            try await access.markRefused(code: input.accessCode, .blocked)
            throw APIError(.blocked, "this identity is blocked; register again")
        case .refused(.busy): throw await AttemptsInFlight.refusal(mpinId: input.mpinId, now: now, storage: storage)
        case .refused:
            try await access.markRefused(code: input.accessCode, .refused)
            throw APIError(.identityNotAuthorized, "unknown or revoked identity")
        }
    }

    /// Settles the reserved attempt by the verdict (a success resets the count, only a genuine
    /// wrong PIN, PIN error not 0, counts towards the block) and stores the verdict under a
    /// fresh authOTT; on success with an access code the page moves to `user` first.
    func finish(
        _ identity: Identity, _ verification: ServerVerification, input: Pass2Input, address: String,
        invalidKey: String
    ) async throws(APIError) -> Pass2Response {
        let verdict = try await settle(
            identity, verification, input: input, address: address, invalidKey: invalidKey, issueToken: true, successAudit: "login_pass2")
        return Pass2Response(authOTT: verdict.authOTT ?? "")
    }

    /// What pass 2 settled: the verdict, its authOTT (none when the login finishes in pass 2),
    /// and the identity's attempts and state after it.
    struct Verdict {
        var outcome: AuthToken.Outcome
        var authOTT: String?
        var after: AttemptResult
    }

    /// `finish`'s work; without `issueToken` (no access code) no token is stored. A success is
    /// audited as `successAudit` in the same transaction.
    func settle(
        _ identity: Identity, _ verification: ServerVerification, input: Pass2Input, address: String,
        invalidKey: String, issueToken: Bool, successAudit: String
    ) async throws(APIError) -> Verdict {
        metrics.verifications.increment()
        let now = clock.now
        let settlement: AttemptSettlement =
            verification.accepted
            ? .success(now: now)
            : verification.pinError != 0 ? .wrongPIN(maxAttempts: config.maxAttempts) : .neutral
        let outcome: AuthToken.Outcome = verification.accepted ? .success : verification.pinError != 0 ? .wrongPIN : .invalidToken
        let authOTT = issueToken ? Tokens.fresh() : nil
        let token = authOTT.map {
            AuthToken(
                hash: Tokens.hash($0), mpinId: identity.mpinId, userId: identity.userId, outcome: outcome,
                attemptsLeft: 0, accessCode: input.accessCode, expires: now + config.authTokenTTL)
        }
        if outcome == .success, let code = input.accessCode, let token {
            guard try await access.markVerified(code: code, identity, authOTTHash: token.hash) else {
                // The attempt is still settled (as a success) so it stops counting as in flight.
                _ = try await storage("settle attempt") { try await $0.settleAttempt(mpinId: identity.mpinId, settlement) }
                throw APIError(.accessCodeExpired, "the access code expired or was used meanwhile")
            }
        }
        // A success's audit row goes in with the verdict; the others need the settled count.
        let successAudit =
            outcome == .success
            ? AuditEvent(time: now, kind: successAudit, userId: identity.userId, mpinId: identity.mpinId, address: address)
            : nil
        let settled = try await storage("finish login") {
            try await $0.finishLogin(settlement, mpinId: identity.mpinId, token: token, maxAttempts: config.maxAttempts, audit: successAudit)
        }
        let after = settled ?? AttemptResult(failedAttempts: identity.failedAttempts, state: identity.state)
        try await record(settlement, identity, after, address: address, invalidKey: invalidKey)
        return Verdict(outcome: outcome, authOTT: authOTT, after: after)
    }

    /// Audit rows, metrics and the invalid-token limit for a settled attempt. The PIN error
    /// itself is never logged: only that the PIN was wrong.
    func record(_ settlement: AttemptSettlement, _ identity: Identity, _ after: AttemptResult, address: String, invalidKey: String)
        async throws(APIError)
    {
        switch settlement {
        case .success:
            break  // audited by finishLogin
        case .wrongPIN:
            metrics.wrongPINs.increment()
            await audit.record("wrong_pin", userId: identity.userId, mpinId: identity.mpinId, address: address, "failed=\(after.failedAttempts)")
            if after.state == .blocked {
                await audit.record("block", userId: identity.userId, mpinId: identity.mpinId, address: address)
                notices.blocked(identity, address: address)
            }
        case .neutral:
            metrics.invalidTokens.increment()
            let withinLimit = try await limiter.hit(invalidKey, config.limits.invalidTokensPerIdentityAndAddress, now: clock.now)
            await audit.record("invalid_token", userId: identity.userId, mpinId: identity.mpinId, address: address)
            guard withinLimit else { throw APIError(.rateLimited, "too many logins without a valid token from this address; try again later") }
        }
    }

    /// `POST /rps/authenticate`: consumes the authOTT and answers the verdict of pass 2.
    func authenticate(_ request: AuthenticateRequest, address: String) async throws(APIError) -> AuthenticateResponse {
        let now = clock.now
        let hash = Tokens.hash(request.mpinResponse.authOTT)
        // A success without an access code is complete here: its audit row goes in with the take.
        let taken = try await storage("take auth token") {
            try await $0.takeAuthToken(hash: hash, now: now, loginAudit: (time: now, address: address))
        }
        guard let (token, state) = taken else { throw APIError(.invalidToken, "unknown, expired or used authOTT") }
        guard let state, state != .revoked else {
            try await access.markRefused(code: token.accessCode, .refused)
            throw APIError(.identityNotAuthorized, "this identity is revoked")
        }
        switch token.outcome {
        case .wrongPIN:
            // The page of the access code shows it live; the code stays usable until it expires.
            if let code = token.accessCode {
                try await access.markWrongPIN(code: code, mpinId: token.mpinId)
            }
            throw APIError(.wrongPIN, "wrong PIN", attemptsLeft: token.attemptsLeft)
        case .blocked:
            try await access.markRefused(code: token.accessCode, .blocked)
            throw APIError(.blocked, "wrong PIN: this identity is now blocked; register again")
        case .invalidToken:
            try await access.markRefused(code: token.accessCode, .refused)
            throw APIError(.invalidToken, "the login proof is not valid")
        case .success: break
        }
        if state == .blocked {
            try await access.markRefused(code: token.accessCode, .blocked)
            throw APIError(.blocked, "this identity is blocked")
        }
        guard let code = token.accessCode else {
            metrics.logins.increment()
            return AuthenticateResponse(userId: token.userId, holder: links.holderProof(mpinId: token.mpinId))
        }
        guard try await access.markAuthenticated(code: code, authOTTHash: token.hash) else {
            throw APIError(.accessCodeExpired, "the access code expired before the login finished")
        }
        guard try await access.waitForTakeUp(code: code) else {
            await audit.record("login_timeout", userId: token.userId, mpinId: token.mpinId, address: address)
            throw APIError(.authenticationTimeout, "the browser did not take the login up")
        }
        await audit.record("login", userId: token.userId, mpinId: token.mpinId, address: address)
        metrics.logins.increment()
        return AuthenticateResponse(userId: token.userId, holder: links.holderProof(mpinId: token.mpinId))
    }
}
