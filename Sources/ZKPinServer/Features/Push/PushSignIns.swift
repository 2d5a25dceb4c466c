import Foundation
import ZKPinWire

/// Push sign-in with number matching: a sign-in page asks for a request to the devices of
/// the person an e-mail names and shows a number; a device offers that number and two others,
/// the person taps the page's, and the device signs the page in with the page's code (its PIN
/// as for a scanned code). A wrong number or "Not me" denies the page's code. A stranger who
/// types someone's address learns nothing: the answer, its work and its limits are the same
/// for an address nobody registered, and the devices are told in the background.
struct PushSignIns: Sendable {
    let config: ServerConfig
    let access: AccessService
    let subscriptions: PushSubscriptions
    let notifier: PushNotifier
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let audit: AuditTrail
    let clock: ServerClock
    let metrics: PushMetrics
    let notMe: NotMeResponse

    /// `POST /rps/push/signin`.
    func start(_ r: PushSignInRequest, address: String) async throws(APIError) -> PushSignInStarted {
        guard r.userId.utf8.count <= 320, let email = EmailAddress.normalized(r.userId) else {
            throw APIError.bad("userId must be the e-mail address you registered with")
        }
        guard !r.webOTT.isEmpty, r.webOTT.utf8.count <= 128 else { throw APIError.bad("webOTT must be the page's webOTT") }
        let now = clock.now
        let found = try await storage("read access session") { try await $0.accessSession(webOTTHash: Tokens.hash(r.webOTT)) }
        guard let session = found else { throw APIError(.notFound, "unknown webOTT") }
        guard session.status == .new, session.expires > now + 10 else {
            throw APIError(.accessCodeExpired, "this page's code is no longer waiting: load the page again for a new one")
        }
        let limits = config.limits
        guard try await limiter.hit("push-signin:\(address)", limits.pushSignInsPerAddress, now: now) else {
            throw APIError(.rateLimited, "too many requests sent to devices from this address: wait a few minutes")
        }
        guard try await limiter.hit("push-signin-email:\(Tokens.hash(email))", limits.pushSignInsPerEmail, now: now) else {
            throw APIError(.rateLimited, "too many requests were sent to the devices of this address: wait an hour, or scan the code")
        }
        let waiting = try await storage("read push sign-ins") { try await $0.pendingPushSignIns(email: email, now: now) }
            .filter { $0.code != session.code }
        guard waiting.count < limits.pendingRequestsPerPerson else {
            throw APIError(
                .rateLimited,
                "\(waiting.count) sign-in requests already wait on the devices of this address: answer them, or wait until they expire")
        }
        let (number, choices) = Self.numbers()
        let signIn = PushSignIn(
            id: Tokens.fresh(bytes: 16), email: email, code: session.code, number: number, choices: choices, site: session.site,
            created: now, expires: min(session.expires, now + Self.lifetime), address: address)
        try await storage("store push sign-in") { try await $0.insertPushSignIn(signIn) }
        metrics.signIns.increment()
        // Told in the background, so the answer takes as long for an address nobody registered.
        let notifier = self.notifier, storage = self.storage, audit = self.audit, site = signIn.site ?? config.serviceName
        Task {
            guard let people = try? await storage("read identities", { try await $0.identities(userId: email) }),
                people.contains(where: { $0.state == .active })
            else { return }
            await audit.record("push_signin", userId: email, address: address, "to \(site), page number \(number)")
            await notifier.queue(
                userId: email, PushPayload(kind: "signin", id: signIn.id, site: site, expires: signIn.expires), urgency: "high")
        }
        return PushSignInStarted(number: number, expires: signIn.expires)
    }

    /// `POST /rps/push/signin/pending`: what waits for the identity's person.
    func pending(_ r: PushListRequest, address: String) async throws(APIError) -> PushSignInList {
        let identity = try await subscriptions.holder(r.mpinId, r.holder, address: address)
        let now = clock.now
        let waiting = try await storage("read push sign-ins") { try await $0.pendingPushSignIns(email: identity.userId.lowercased(), now: now) }
        return PushSignInList(
            requests: waiting.map { PushSignInView(id: $0.id, site: $0.site ?? config.serviceName, choices: $0.choices, expires: $0.expires) })
    }

    /// `POST /rps/push/signin/answer`.
    func answer(_ r: PushSignInAnswerRequest, address: String) async throws(APIError) -> PushSignInAnswer {
        let saysNotMe = r.notMe == true
        guard saysNotMe != (r.choice != nil) else { throw APIError.bad("give either choice (the number the page shows) or notMe: true") }
        guard r.id.utf8.count <= 64 else { throw APIError.bad("id must be a push sign-in's id") }
        let identity = try await subscriptions.holder(r.mpinId, r.holder, address: address)
        let now = clock.now
        let found = try await storage("read push sign-in") { try await $0.pushSignIn(id: r.id) }
        guard let request = found, request.email == identity.userId.lowercased() else {
            throw APIError(.notFound, "no such sign-in request for you")
        }
        let state: PushSignIn.State = saysNotMe ? .notMe : r.choice == request.number ? .matched : .denied
        let mpinId = identity.mpinId
        let answered = try await storage("answer push sign-in") { try await $0.answerPushSignIn(id: r.id, state: state, mpinId: mpinId, now: now) }
        guard let answered else { throw APIError(.notFound, "this sign-in request was answered already, replaced or expired") }
        let site = answered.site ?? config.serviceName
        switch state {
        case .matched:
            await audit.record("push_signin_matched", userId: identity.userId, mpinId: mpinId, address: address, "to \(site)")
            return PushSignInAnswer(outcome: "matched", accessCode: answered.code)
        case .denied:
            _ = try await access.markDenied(code: answered.code)
            metrics.signInsDenied.increment()
            await audit.record(
                "push_signin_denied", userId: identity.userId, mpinId: mpinId, address: address,
                "to \(site): chose \(r.choice ?? 0), the page showed \(answered.number)")
            return PushSignInAnswer(outcome: "denied")
        default:
            _ = try await access.markDenied(code: answered.code)
            let blocked = try await notMe.record(identity, request: "sign in to \(site) as \(identity.userId)", askedFrom: answered.address)
            await audit.record(
                "push_signin_not_me", userId: identity.userId, mpinId: mpinId, address: address,
                "to \(site), asked from \(answered.address ?? "?")\(blocked ? "; the person's identities blocked" : "")")
            return PushSignInAnswer(outcome: "not_me", blocked: blocked)
        }
    }

    /// Seconds a request lives at most (the page's code may end sooner).
    static let lifetime = 120

    /// The page's number and the three a device offers: distinct, 10...99, in random order.
    static func numbers() -> (Int, [Int]) {
        var generator = SystemRandomNumberGenerator()
        var picked: [Int] = []
        while picked.count < 3 {
            let n = Int.random(in: 10...99, using: &generator)
            if !picked.contains(n) { picked.append(n) }
        }
        return (picked[0], picked.shuffled(using: &generator))
    }
}
