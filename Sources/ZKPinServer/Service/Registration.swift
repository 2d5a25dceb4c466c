import Foundation
import ZKPinProtocol
import ZKPinWire

extension RelyingParty {
    /// `PUT /rps/user`.
    public func register(_ request: RegisterRequest, address: String) async throws(APIError) -> RegisterResponse {
        let email = request.userId
        guard EmailAddress.isValid(email) else { throw APIError.bad("userId must be an e-mail address (at most 254 characters)") }
        let device = String((request.deviceName ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }.prefix(64))
        guard request.mobile == nil || request.mobile == 0 || request.mobile == 1 else { throw APIError.bad("mobile is 0 or 1") }
        let lowered = email.lowercased()
        guard await limiter.hit("reg-mail:\(lowered)", config.limits.registrationsPerEmail, now: now),
              await limiter.hit("reg-addr:\(address)", config.limits.registrationsPerAddress, now: now)
        else { throw APIError(.rateLimited, "too many registrations; try again later") }

        let created = now
        let identity = MPinIdentity(issued: ISOTime.string(created), userID: email, mobile: request.mobile ?? 0,
                                    salt: Tokens.fresh(bytes: 16))
        let mpinId = identity.mpinId
        let regOTT = Tokens.fresh()
        let expires = created + config.registrationTTL
        let pending = PendingRegistration(mpinId: mpinId, userId: email, device: device, regOTTHash: Tokens.hash(regOTT),
                                          codeHash: codeHash(Tokens.confirmationCode(regOTT: regOTT) ?? ""),
                                          created: created, expires: expires, address: address)
        do { try await store.insertRegistration(pending) } catch { throw APIError(.internalError, "cannot store the registration") }
        await sendActivationMail(pending)
        await audit("register", userId: email, mpinId: mpinId, address: address, "device=\(device)")
        metrics.registrations.increment()
        return RegisterResponse(mpinId: mpinId, regOTT: regOTT, expireTime: ISOTime.string(expires),
                                nowTime: ISOTime.string(created), active: false)
    }

    /// `PUT /rps/user/<mpinId>`: re-sends the activation mail.
    public func resend(mpinId: String, _ request: ResendRequest, address: String) async throws(APIError) -> RegisterResponse {
        let pending = try await livePending(mpinId: mpinId, regOTT: request.regOTT)
        guard await limiter.hit("reg-mail:\(pending.userId.lowercased())", config.limits.registrationsPerEmail, now: now),
              await limiter.hit("reg-addr:\(address)", config.limits.registrationsPerAddress, now: now)
        else { throw APIError(.rateLimited, "too many mails; try again later") }
        if pending.activated == nil { await sendActivationMail(pending) }
        await audit("resend", userId: pending.userId, mpinId: mpinId, address: address)
        return RegisterResponse(mpinId: mpinId, regOTT: request.regOTT, expireTime: ISOTime.string(pending.expires),
                                nowTime: ISOTime.string(now), active: pending.activated != nil)
    }

    /// The live registration whose regOTT matches; a wrong regOTT is 400 and deletes nothing.
    func livePending(mpinId: String, regOTT: String) async throws(APIError) -> PendingRegistration {
        _ = try idBytes(mpinId)
        let found: PendingRegistration?
        do { found = try await store.registration(mpinId: mpinId) } catch { throw APIError(.internalError, "storage failed") }
        guard let pending = found, pending.expires > now, Tokens.equal(pending.regOTTHash, Tokens.hash(regOTT)) else {
            throw APIError(.invalidRegOTT, "unknown or expired registration, or a wrong regOTT")
        }
        return pending
    }

    func codeHash(_ code: String) -> String {
        Tokens.hmac(key: linkKey, "confirmation\n" + ConfirmationCode.normalize(code))
    }

    func activationSignature(mpinId: String, expires: Int) -> String {
        Tokens.hmac(key: linkKey, "activate\n\(mpinId)\n\(expires)")
    }

    public func activationLink(mpinId: String, expires: Int) -> String {
        "\(config.publicURL)/mpinActivate?i=\(mpinId)&e=\(expires)&s=\(activationSignature(mpinId: mpinId, expires: expires))"
    }

    func sendActivationMail(_ pending: PendingRegistration) async {
        let link = activationLink(mpinId: pending.mpinId, expires: pending.expires)
        let body = """
            Someone (hopefully you) asked to register a ZKPin identity for \(pending.userId)
            on \(config.serviceName) (\(config.publicURL)).

            Device: \(pending.device.isEmpty ? "(not named)" : pending.device)
            Requested at: \(ISOTime.string(pending.created)) from \(pending.address)

            To activate it, open this link and type the confirmation code that your
            zkpin client shows ("Confirmation code: XXXX-XXXX"):

            \(link)

            If you did not ask for this, ignore this mail: nothing happens without the code.
            The link expires at \(ISOTime.string(pending.expires)).
            """
        do {
            try await mailer.send(Mail(from: config.mailFrom, to: pending.userId, subject: "Activate your ZKPin identity", body: body))
        } catch {
            logger.error("activation mail failed", metadata: ["error": "\(error)"])
        }
    }
}
