import ZKPinWire

/// One-time codes for systems that only take a password (docs/api.md, "One-time codes"):
/// issued by pass 2 with `OTP` after a verified proof (`OneTimeCodeLogin`), checked by a
/// registered service at `POST /otp/verify`. Only an HMAC of each code, bound to the person and
/// the service, is stored; a check compares in constant time and consumes the code with one
/// atomic statement. Wrong codes are limited per person and service, and the limit holds
/// back only that service's checks: never the person's PIN logins.
struct OTPService: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    /// The relying party's HMAC key (rps.key): a stolen database does not give the codes.
    let key: [UInt8]
    let audit: AuditTrail
    let metrics: ServerMetrics
    let clock: ServerClock

    init(rp: RelyingParty) {
        config = rp.config
        storage = rp.storage
        limiter = rp.limiter
        key = rp.links.key
        audit = rp.audit
        metrics = rp.metrics
        clock = rp.clock
    }

    /// What a stored code is: HMAC over the service, the person and the code.
    func hash(code: String, userId: String, clientId: String) -> String {
        Tokens.hmac(key: key, "otp\n\(clientId)\n\(userId)\n\(code)")
    }

    /// The service a code is asked for: a client registered with `--otp`, by id or name
    /// (case-insensitive); none named: the only one. Checked before anything is consumed.
    func service(named name: String?) async throws(APIError) -> OIDCClient {
        let services = try await storage("read one-time code services") { try await $0.otpServices() }
        guard let name else {
            if services.count == 1 { return services[0] }
            if services.isEmpty { throw APIError.bad("this server has no one-time code service (admin clients add NAME --otp)") }
            throw APIError.bad("name the service the code is for: \(services.map(\.name).joined(separator: ", "))")
        }
        if let byId = services.first(where: { $0.id == name }) { return byId }
        let byName = services.filter { $0.name.lowercased() == name.lowercased() }
        guard byName.count == 1 else {
            throw APIError.bad(byName.isEmpty ? "no one-time code service is named \(name)" : "several services are named \(name): give its id")
        }
        return byName[0]
    }

    /// Draws, stores and answers a fresh code for a person whose proof verified.
    func issue(userId: String, mpinId: String, service: OIDCClient, address: String) async throws(APIError) -> OTPResponse {
        var generator = OTPGenerator(digits: config.otp.digits)
        let code = generator.next()
        let now = clock.now
        let stored = OneTimeCode(
            id: Tokens.fresh(bytes: 16), userId: userId, clientId: service.id, mpinId: mpinId,
            hash: hash(code: code, userId: userId, clientId: service.id), created: now, expires: now + config.otp.ttl)
        try await storage("insert one-time code") { try await $0.insertOTP(stored) }
        metrics.otpIssued.increment()
        await audit.record("otp_issue", userId: userId, mpinId: mpinId, address: address, service.id)
        return OTPResponse(otp: code, expiresIn: config.otp.ttl, expires: stored.expires, service: service.name, userId: userId)
    }

    /// `POST /otp/verify` for an authenticated service. Every check is counted first (one
    /// atomic upsert); a right one gives its count back, so N concurrent guesses never get more
    /// than the limit compared. Over the limit: 429, even for a right code (it stays unused).
    func verify(user: String, otp: String, service: OIDCClient, address: String) async throws(APIError) -> OTPVerifyResponse {
        guard service.otp, !service.isPublic else { throw APIError(.forbidden, "this client is not registered for one-time codes (--otp)") }
        guard !user.isEmpty, user.utf8.count <= 254, !user.contains(where: \.isNewline) else {
            throw APIError.bad("user must be the person's e-mail address (at most 254 characters)")
        }
        let userId = EmailAddress.folded(user)
        let now = clock.now
        let limitKey = "otp-wrong:\(service.id):\(userId)"
        guard try await limiter.hit(limitKey, config.otp.wrongCodes, now: now) else {
            metrics.otpRefused.increment()
            await audit.record("otp_refused", userId: userId, address: address, "\(service.id) limited")
            throw APIError(.rateLimited, "too many wrong one-time codes for this person; wait a few minutes")
        }
        let wellFormed = otp.utf8.count == config.otp.digits && otp.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        var matched: OneTimeCode? = nil
        if wellFormed {
            let presented = hash(code: otp, userId: userId, clientId: service.id)
            let live = try await storage("read one-time codes") { try await $0.liveOTPs(userId: userId, clientId: service.id, now: now) }
            // Every live code is compared, in constant time, with no early exit.
            for code in live where Tokens.equal(code.hash, presented) { matched = code }
        }
        if let code = matched, try await storage("consume one-time code", { try await $0.consumeOTP(id: code.id, now: now) }) {
            try await storage("give back a rate-limit event") { try await $0.uncountEvent(key: limitKey) }
            metrics.otpUsed.increment()
            await audit.record("otp_use", userId: userId, mpinId: code.mpinId, address: address, service.id)
            return OTPVerifyResponse(valid: true)
        }
        metrics.otpRefused.increment()
        await audit.record("otp_refused", userId: userId, address: address, "\(service.id) \(matched == nil ? "wrong" : "used")")
        return OTPVerifyResponse(valid: false)
    }
}
