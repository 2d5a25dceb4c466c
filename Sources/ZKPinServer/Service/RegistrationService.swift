import Foundation
import Logging
import ZKPinProtocol
import ZKPinWire

/// `PUT /rps/user` and `PUT /rps/user/<mpinId>`: pending registrations and their activation mail.
struct RegistrationService: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let links: LinkSigner
    let mailer: any Mailer
    let audit: AuditTrail
    let metrics: ServerMetrics
    let clock: ServerClock
    let logger: Logger
    /// Validates a DVS public key Pa (on the twist, in G2) before it becomes part of an identity.
    let suite: any MPinSuite

    func register(_ request: RegisterRequest, address: String) async throws(APIError) -> RegisterResponse {
        guard let email = EmailAddress.normalized(request.userId) else {
            throw APIError.bad(
                "userId must be an e-mail address (at most 254 characters; no control, format or bidi characters, no emoji or other symbols, no full-width or other compatibility forms, no part mixing Latin, Greek and Cyrillic letters)"
            )
        }
        let device = try DeviceName.checked(request.deviceName)
        guard request.mobile == nil || request.mobile == 0 || request.mobile == 1 else { throw APIError.bad("mobile is 0 or 1") }
        try await checkMailLimits(email: email, address: address, refusal: "too many registrations; try again later")

        let created = clock.now
        let identity = MPinIdentity(
            issued: ISOTime.string(created), userID: email, mobile: request.mobile ?? 0,
            salt: Tokens.fresh(bytes: 16))
        let mpinId = try signingIdentity(identity, publicKey: request.pa)
        let regOTT = Tokens.fresh()
        let expires = created + config.registrationTTL
        let pending = PendingRegistration(
            mpinId: mpinId, userId: email, device: device, regOTTHash: Tokens.hash(regOTT),
            codeHash: links.confirmationCodeHash(Tokens.confirmationCode(regOTT: regOTT) ?? ""),
            created: created, expires: expires, address: address)
        try await storage("insert registration") { try await $0.insertRegistration(pending) }
        await sendActivationMail(pending)
        await audit.record("register", userId: email, mpinId: mpinId, address: address, "device=\(device)")
        metrics.registrations.increment()
        return RegisterResponse(
            mpinId: mpinId, regOTT: regOTT, expireTime: ISOTime.string(expires),
            nowTime: ISOTime.string(created), active: false)
    }

    /// Re-sends the activation mail.
    /// The mpinId: hex(ID), or hex(ID ‖ Pa) for a client that sends its DVS public key, so that
    /// both authorities issue shares for ID' and everything after (shares, permits, login,
    /// revocation) works on that longer mpinId unchanged.
    func signingIdentity(_ identity: MPinIdentity, publicKey: String?) throws(APIError) -> String {
        guard let publicKey else { return identity.mpinId }
        guard publicKey.utf8.count == 2 * suite.g2ByteCount, let pa = Hex.decode(publicKey) else {
            throw APIError.bad("pa must be \(suite.g2ByteCount) bytes of hex: a G2 point of this server's curve")
        }
        do { return Hex.encode(try suite.dvsIdentity(id: identity.jsonBytes(), publicKey: pa)) } catch {
            throw APIError.bad("pa is not a point of G2 on this server's curve")
        }
    }

    func resend(mpinId: String, _ request: ResendRequest, address: String) async throws(APIError) -> RegisterResponse {
        let pending = try await livePending(mpinId: mpinId, regOTT: request.regOTT)
        try await checkMailLimits(email: pending.userId, address: address, refusal: "too many mails; try again later")
        if pending.activated == nil { await sendActivationMail(pending) }
        await audit.record("resend", userId: pending.userId, mpinId: mpinId, address: address)
        return RegisterResponse(
            mpinId: mpinId, regOTT: request.regOTT, expireTime: ISOTime.string(pending.expires),
            nowTime: ISOTime.string(clock.now), active: pending.activated != nil)
    }

    /// The live registration whose regOTT matches; a wrong regOTT is 400 and deletes nothing.
    func livePending(mpinId: String, regOTT: String) async throws(APIError) -> PendingRegistration {
        _ = try MPinIDText.bytes(mpinId)
        let found = try await storage("read registration") { try await $0.registration(mpinId: mpinId) }
        guard let pending = found, pending.expires > clock.now, Tokens.equal(pending.regOTTHash, Tokens.hash(regOTT)) else {
            throw APIError(.invalidRegOTT, "unknown or expired registration, or a wrong regOTT")
        }
        return pending
    }

    func checkMailLimits(email: String, address: String, refusal: String) async throws(APIError) {
        let now = clock.now
        // Per e-mail *and* address: a stranger registering someone else's address uses up only
        // the stranger's own count, never the owner's (docs/limits.md).
        guard try await limiter.hit("reg-addr:\(address)", config.limits.registrationsPerAddress, now: now),
            try await limiter.hit("reg-mail:\(email):\(address)", config.limits.registrationsPerEmailAndAddress, now: now)
        else { throw APIError(.rateLimited, refusal) }
    }

    func sendActivationMail(_ pending: PendingRegistration) async {
        let link = links.activationLink(mpinId: pending.mpinId, expires: pending.expires)
        let body = """
            Someone (hopefully you) asked to register a ZKPin identity for \(pending.userId)
            on \(config.serviceName) (\(config.publicURL)).

            Request details (typed by whoever asked; not a message from us):
              Device name: \(pending.device.isEmpty ? "(none given)" : "\"" + pending.device + "\"")
              Requested at: \(ISOTime.string(pending.created))
              From address: \(pending.address)

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

/// mpinIds and hex fields as they arrive in requests.
enum MPinIDText {
    /// The M-Pin ID bytes of an mpinId (400 when it is not hex of an identity).
    static func bytes(_ mpinId: String) throws(APIError) -> [UInt8] {
        guard mpinId.utf8.count <= 2048, let bytes = Hex.decode(mpinId), !bytes.isEmpty else {
            throw APIError.bad("mpin_id is not hex")
        }
        return bytes
    }

    /// A hex-encoded request field (400 naming it when it is not hex).
    static func hexField(_ text: String, _ name: String) throws(APIError) -> [UInt8] {
        guard text.utf8.count <= 1024, let bytes = Hex.decode(text), !bytes.isEmpty else { throw APIError.bad("\(name) is not hex") }
        return bytes
    }
}
