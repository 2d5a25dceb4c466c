import Foundation
import ZKPinProtocol
import ZKPinWire

/// The person's side of approvals (docs/api.md "Approvals: the person's side"): a
/// signing-capable identity proves itself with a DVS signature to list its pending CIBA
/// requests, and signs its answer to one. Every signature takes an attempt as a login does
/// (reserve, then settle once): a genuine wrong PIN counts towards the same block. Each
/// signature is accepted once (a replay is refused before anything is counted), the
/// signatures are rate-limited per address and per identity and address as pass 1 is, and
/// their pairings run on the pairing worker.
struct ApprovalService: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let batcher: LoginBatcher
    let audit: AuditTrail
    let metrics: ServerMetrics
    let clock: ServerClock
    let suite: any MPinSuite
    let serverSecret: PreparedServerSecret
    let notifier: BackchannelNotifier
    let notMe: NotMeResponse

    init(rp: RelyingParty) {
        config = rp.config
        storage = rp.storage
        limiter = rp.limiter
        batcher = rp.batcher
        audit = rp.audit
        metrics = rp.metrics
        clock = rp.clock
        suite = rp.suite
        serverSecret = rp.preparedSecret
        notifier = BackchannelNotifier(audit: rp.audit)
        notMe = rp.notMe
    }

    /// How far a signature's time may be from the server's clock.
    static let timeWindow = 120

    /// `POST /rps/approvals`.
    func pending(_ request: ApprovalsRequest, address: String) async throws(APIError) -> ApprovalsResponse {
        let identity = try await verified(
            try await self.identity(request.mpinId), time: request.time, u: request.U, v: request.V,
            message: Digest.sha256(ApprovalText.list(mpinId: request.mpinId, time: request.time)), address: address)
        let now = clock.now
        let found = try await storage("read pending approvals") { try await $0.pendingBackchannelRequests(userId: identity.userId, now: now) }
        var requests: [PendingApproval] = []
        var sites: [String: String] = [:]  // each client's name read once
        for r in found {
            if sites[r.clientId] == nil {
                sites[r.clientId] = try await storage("read OIDC client") { try await $0.oidcClient(id: r.clientId) }?.name ?? r.clientId
            }
            let site = sites[r.clientId] ?? r.clientId
            requests.append(
                PendingApproval(
                    authReqId: r.id, clientId: r.clientId, site: site, bindingMessage: r.bindingMessage,
                    authorizationDetails: r.authorizationDetails, expires: r.expires))
        }
        return ApprovalsResponse(requests: requests)
    }

    /// `POST /rps/approvals/answer`: the signed answer, stored once. Another person's request,
    /// an answered one and an expired one are all "no such pending request" (404), so a
    /// stranger learns nothing about anyone's requests.
    func answer(_ request: ApprovalAnswerRequest, address: String) async throws(APIError) -> ApprovalAnswerResponse {
        guard ["approve", "deny", "not_me"].contains(request.answer) else { throw APIError.bad("answer is approve, deny or not_me") }
        guard request.authReqId.utf8.count <= 256 else { throw APIError.bad("authReqId is too long") }
        let now = clock.now
        let signer = try await self.identity(request.mpinId)
        let stored = try await storage("read approval request") { try await $0.backchannelRequest(id: request.authReqId) }
        guard let pending = stored, pending.status == .pending, pending.expires > now, pending.userId == signer.userId
        else { throw APIError(.notFound, "no such pending request for this identity") }
        let text = ApprovalText.answer(
            answer: request.answer, authReqId: pending.id, clientId: pending.clientId, bindingMessage: pending.bindingMessage,
            time: request.time, authorizationDetails: pending.authorizationDetails)
        let digest = Digest.sha256(text)
        let identity = try await verified(signer, time: request.time, u: request.U, v: request.V, message: digest, address: address)
        let approval: String? = request.answer == "approve" ? try approvalClaim(pending, identity: identity, request, digest: digest) : nil
        let answered = try await storage("answer approval request") {
            try await $0.answerBackchannelRequest(id: pending.id, userId: identity.userId, approval: approval, mpinId: identity.mpinId, now: now)
        }
        guard answered != nil else { throw APIError(.notFound, "no such pending request for this identity (answered already?)") }
        if let token = pending.notificationToken,
            let client = try? await storage("read OIDC client", { try await $0.oidcClient(id: pending.clientId) }),
            client.ciba == .ping, let endpoint = client.notificationEndpoint
        {
            notifier.ping(endpoint: endpoint, token: token, authReqId: pending.id, clientId: client.id)
        }
        (request.answer == "approve" ? metrics.approvals : metrics.denials).increment()
        // "Not me" is a denial the site sees as any other (access_denied), and more for the person.
        var blocked = false
        if request.answer == "not_me" {
            let site = (try? await storage("read OIDC client", { try await $0.oidcClient(id: pending.clientId) }))??.name ?? pending.clientId
            blocked = try await notMe.record(identity, request: "\(site) asks you to approve: \(pending.bindingMessage)", askedFrom: nil)
        }
        let (kind, status) =
            switch request.answer {
            case "approve": ("ciba_approved", "approved")
            case "not_me": ("ciba_not_me", "not_me")
            default: ("ciba_denied", "denied")
            }
        await audit.record(
            kind, userId: identity.userId, mpinId: identity.mpinId, address: address,
            "client \(pending.clientId): \(pending.bindingMessage)\(blocked ? "; the person's identities blocked" : "")")
        return ApprovalAnswerResponse(authReqId: pending.id, status: status)
    }

    /// The ID token's `approval` claim (JSON) for a verified approval.
    func approvalClaim(_ r: BackchannelRequest, identity: Identity, _ a: ApprovalAnswerRequest, digest: [UInt8]) throws(APIError) -> String {
        let pa = Hex.encode(MPinIdentity.parts(of: identity.mpinId, publicKeyBytes: suite.g2ByteCount)?.publicKey ?? [])
        let claim = ApprovalClaim(
            auth_req_id: r.id, binding_message: r.bindingMessage, authorization_details: r.authorizationDetails, digest: Hex.encode(digest),
            time: a.time, mpin_id: identity.mpinId, Pa: pa,
            U: a.U.lowercased(), V: a.V.lowercased())
        guard let data = try? JSONEncoder().encode(claim) else { throw APIError(.internalError, "the approval could not be recorded") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether an `approval` claim is one this service issued to `clientId` and still holds
    /// (for `/oauth/approval/verify`; counts no attempt). The claim is compared with the stored
    /// record before any pairing: a claim built by the caller (any request id, message, time
    /// or signature) is "not valid" without being verified, so the endpoint can never tell
    /// whether a signature made with a guessed PIN would verify. A matching claim is then
    /// verified again on the pairing worker: its digest is SHA-256 of the text its fields make,
    /// and (t, U, V) the identity's signature on it.
    func verifies(_ claim: ApprovalClaim, clientId: String) async throws(APIError) -> Bool {
        guard claim.auth_req_id.utf8.count <= 256,
            let record = try await storage("read approval request", { try await $0.backchannelRequest(id: claim.auth_req_id) }),
            record.clientId == clientId, let issuedText = record.approval,
            let issued = try? JSONDecoder().decode(ApprovalClaim.self, from: Data(issuedText.utf8)),
            issued.normalised == claim.normalised
        else { return false }
        let text = ApprovalText.answer(
            answer: "approve", authReqId: claim.auth_req_id, clientId: clientId, bindingMessage: claim.binding_message,
            time: claim.time, authorizationDetails: claim.authorization_details)
        guard Hex.encode(Digest.sha256(text)) == claim.digest.lowercased(),
            let parts = MPinIdentity.parts(of: claim.mpin_id, publicKeyBytes: suite.g2ByteCount), let pa = parts.publicKey,
            Hex.decode(claim.Pa) == pa, let id = Hex.decode(claim.mpin_id), let digest = Hex.decode(claim.digest), digest.count == 32,
            let u = Hex.decode(claim.U), let v = Hex.decode(claim.V)
        else { return false }
        let (suite, serverSecret) = (suite, serverSecret)
        return await batcher.perform {
            suite.dvsVerify(
                id: Array(id.dropLast(pa.count)), publicKey: pa, date: 0, serverSecret: serverSecret, message: digest,
                signature: DVSSignatureBytes(time: claim.time, u: u, v: v), signer: .loginTokenAndKey
            ).accepted
        }
    }

    /// The identity of `mpinId`; 403 when there is none.
    func identity(_ mpinId: String) async throws(APIError) -> Identity {
        _ = try MPinIDText.bytes(mpinId)
        guard let found = try await storage("read identity", { try await $0.identity(mpinId: mpinId) }) else {
            throw APIError(.identityNotAuthorized, "identity not authorized (revoked or unknown)")
        }
        return found
    }

    /// Verifies a DVS signature of `found` on `message` and settles the attempt it took.
    func verified(_ found: Identity, time: Int, u: String, v: String, message: [UInt8], address: String) async throws(APIError) -> Identity {
        let mpinId = found.mpinId
        let id = try MPinIDText.bytes(mpinId)
        let uBytes = try MPinIDText.hexField(u, "U"), vBytes = try MPinIDText.hexField(v, "V")
        let now = clock.now
        guard abs(time - now) <= Self.timeWindow else {
            throw APIError.bad("time is more than \(Self.timeWindow) seconds from the server's clock; check this device's clock")
        }
        guard let parts = MPinIdentity.parts(of: mpinId, publicKeyBytes: suite.g2ByteCount), let pa = parts.publicKey else {
            throw APIError(.forbidden, "this identity cannot sign approvals: register this device again to approve")
        }
        // Points that do not decode are refused as pass 1 refuses them, before anything is counted.
        do {
            try suite.validateLoginPoints(u: uBytes, ut: nil, for: serverSecret)
            try suite.validateLoginPoints(u: vBytes, ut: nil, for: serverSecret)
        } catch { throw APIError.bad("U and V must be points of G1: \(error)") }
        guard try await limiter.hit("approval-addr:\(address)", config.limits.approvalsPerAddress, now: now),
            try await limiter.hit("approval:\(mpinId):\(address)", config.limits.approvalsPerIdentityAndAddress, now: now)
        else { throw APIError(.rateLimited, "too many approval signatures from this address; wait a minute") }
        // Each signature is accepted once: a replay (for as long as its time is in the window)
        // is refused before an attempt is reserved, so it can neither settle as a success (which
        // would reset the wrong-PIN count) nor count as a wrong PIN.
        let signatureKey = "approval-signature:" + Hex.encode(Digest.sha256(Array(mpinId.utf8) + uBytes + vBytes))
        guard try await limiter.hit(signatureKey, RateLimiter.Rule(limit: 1, window: 2 * Self.timeWindow + 60), now: now) else {
            throw APIError.bad("this signature was used already: sign again")
        }
        let reservation = try await storage("reserve attempt") {
            try await $0.reserveAttempt(mpinId: mpinId, maxAttempts: config.maxAttempts, now: now, hold: config.attemptHold)
        }
        switch reservation {
        case .reserved: break
        case .blocked: throw APIError(.blocked, "identity blocked: too many wrong PINs")
        case .revoked, .unknown: throw APIError(.identityNotAuthorized, "identity not authorized (revoked or unknown)")
        case .busy: throw await AttemptsInFlight.refusal(mpinId: mpinId, now: now, storage: storage)
        }
        let (suite, serverSecret) = (suite, serverSecret)
        let verification = await batcher.perform {
            suite.dvsVerify(
                id: Array(id.dropLast(pa.count)), publicKey: pa, date: 0, serverSecret: serverSecret, message: message,
                signature: DVSSignatureBytes(time: time, u: uBytes, v: vBytes), signer: .loginTokenAndKey,
                // A person lists, then answers: the second signature finds Pa's lines ready.
                cachingPublicKey: true)
        }
        let outcome: AuthToken.Outcome = verification.accepted ? .success : verification.pinError != 0 ? .wrongPIN : .invalidToken
        let settlement: AttemptSettlement =
            switch outcome {
            case .success: .success(now: now)
            case .wrongPIN: .wrongPIN(maxAttempts: config.maxAttempts)
            default: .neutral
            }
        guard let after = try await storage("settle attempt", { try await $0.settleAttempt(mpinId: found.mpinId, settlement) }) else {
            throw APIError(.identityNotAuthorized, "identity not authorized (revoked or unknown)")
        }
        switch outcome {
        case .wrongPIN: await audit.record("approval_wrong_pin", userId: found.userId, mpinId: found.mpinId, address: address)
        case .invalidToken: await audit.record("approval_invalid_signature", userId: found.userId, mpinId: found.mpinId, address: address)
        default: break
        }
        if outcome != .success { metrics.approvalRefusals.increment() }
        if let refusal = LoginService.refusal(outcome, after: after, maxAttempts: config.maxAttempts) { throw refusal }
        return found
    }
}
