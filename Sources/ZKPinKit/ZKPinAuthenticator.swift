/// A device's ZKPin authenticator: registers the person by e-mail, signs web pages in with the
/// page's access code, answers approval requests with a signature, and gives one-time codes,
/// all with a 4-digit PIN that never leaves the call it is given to. The identities (the
/// PIN-less token and the signing key) stay in `store`.
///
/// ```swift
/// let zkpin = ZKPinAuthenticator(store: KeychainIdentityStore())
/// let payload = try ZKPinAuthenticator.readPayload(scannedText)   // "https://host#1234567"
/// let site = try await zkpin.checkPayload(payload)              // the page shows "scanned"
/// let user = try await zkpin.signIn(payload, pin: "1234")
/// ```
public struct ZKPinAuthenticator: Sendable {
    public let store: any IdentityStore
    let connection: RPSConnection

    /// `transport`: URLSession by default.
    public init(store: any IdentityStore, transport: any HTTPTransport = URLSessionTransport()) {
        self.store = store
        connection = RPSConnection(transport: transport)
    }

    // MARK: Payloads and servers

    /// Reads what a sign-in page shows as a QR code or text: `<url>#<access code>`. The access
    /// code's check digit is verified, so a mistyped code fails here, before any request.
    public static func readPayload(_ text: String) throws(ZKPinKitError) -> Payload {
        do { return try Payload(parsing: text) } catch { throw ZKPinKitError(error) }
    }

    /// What the server at `url` is: its name, curve and endpoints (`GET /service`).
    public func service(at url: String) async throws(ZKPinKitError) -> Service {
        try await run { () async throws(ClientError) -> Service in
            try await Discovery(connection: connection).discover(server: try ServerURL.normalize(url))
        }
    }

    /// Checks that the page's code is still live and tells the page it was scanned; returns the
    /// name of the site it signs in to, when the server says (for a screen "Sign in to Wiki?").
    @discardableResult
    public func checkPayload(_ payload: Payload) async throws(ZKPinKitError) -> String? {
        let service = try await service(at: payload.server)
        return try await run { () async throws(ClientError) -> String? in
            try await Login(connection: connection, store: store).checkAccessCode(payload.accessCode, service: service)
        }
    }

    // MARK: Identities

    /// Every stored identity, on every server.
    public func identities() throws(ZKPinKitError) -> [Identity] {
        do { return try store.all() } catch { throw ZKPinKitError(error) }
    }

    /// Forgets the identity `userId` on `server` (the server keeps its own record).
    public func forget(userId: String, server: String) throws(ZKPinKitError) {
        do { _ = try store.delete(userId: userId, server: try ServerURL.normalize(server)) } catch { throw ZKPinKitError(error) }
    }

    // MARK: Registration

    /// A registration the server has started: show `confirmationCode`; the person types it on
    /// the page the mailed link opens. The pending registration is already stored.
    public struct PendingRegistration: Sendable {
        public let identity: Identity
        public let confirmationCode: String
        /// When the link stops working (ISO 8601, as the server sent it).
        public let expireTime: String
        public let service: Service
    }

    /// Asks `server` for an identity for `email` (with a signing key, so it can answer approvals).
    public func register(email: String, deviceName: String? = nil, server: String) async throws(ZKPinKitError) -> PendingRegistration {
        let service = try await service(at: server)
        return try await run { () async throws(ClientError) -> PendingRegistration in
            let started = try await Registration(connection: connection, store: store)
                .start(email: email, deviceName: deviceName, service: service)
            return PendingRegistration(
                identity: started.identity, confirmationCode: started.confirmationCode, expireTime: started.expireTime, service: service)
        }
    }

    /// Waits (asking every `interval`) until the person confirmed the registration, then takes
    /// the PIN: the token, the client secret minus the PIN's multiple, is all that is stored.
    /// Throws `.notActivated` after `timeoutSeconds`.
    public func completeRegistration(
        _ pending: PendingRegistration, pin: String, timeoutSeconds: Int = 600, interval: Duration = .seconds(2)
    ) async throws(ZKPinKitError) -> Identity {
        try await run { () async throws(ClientError) -> Identity in
            let pin = try Self.validNewPIN(pin)
            let registration = Registration(connection: connection, store: store)
            let activation = try await registration.waitForActivation(
                identity: pending.identity, service: pending.service, timeoutSeconds: timeoutSeconds, interval: interval)
            return try registration.finish(
                identity: pending.identity, service: pending.service, clientSecret: activation.clientSecret, pin: pin,
                holder: activation.holder)
        }
    }

    // MARK: Signing in

    /// Signs the page of `payload` in as `userId` (nil: the only identity stored for that
    /// server); returns the user id the server signed in.
    public func signIn(_ payload: Payload, userId: String? = nil, pin: String) async throws(ZKPinKitError) -> String {
        let service = try await service(at: payload.server)
        return try await run { () async throws(ClientError) -> String in
            let login = Login(connection: connection, store: store)
            let identity = try identity(userId, service: service, login: login, accessCode: payload.accessCode)
            return try await login.signIn(identity: identity, service: service, accessCode: payload.accessCode, pin: PIN(parsing: pin))
        }
    }

    /// A one-time code for a password-only system (a VPN, SSH through RADIUS or PAM) of the
    /// server at `server`; `system` names it when the server has several.
    public func oneTimeCode(server: String, userId: String? = nil, system: String? = nil, pin: String) async throws(ZKPinKitError) -> String {
        let service = try await service(at: server)
        return try await run { () async throws(ClientError) -> String in
            let login = Login(connection: connection, store: store)
            let identity = try identity(userId, service: service, login: login, accessCode: nil)
            return try await login.oneTimeCode(identity: identity, service: service, serviceName: system, pin: PIN(parsing: pin)).otp
        }
    }

    /// Changes the PIN: the server checks the current one first; the new token replaces the old.
    public func changePIN(server: String, userId: String? = nil, current: String, new: String) async throws(ZKPinKitError) {
        let service = try await service(at: server)
        try await run { () async throws(ClientError) in
            let login = Login(connection: connection, store: store)
            let identity = try identity(userId, service: service, login: login, accessCode: nil)
            _ = try await PINChange(connection: connection, store: store)
                .change(identity: identity, service: service, old: PIN(parsing: current), new: try Self.validNewPIN(new))
        }
    }

    // MARK: Approvals

    /// The approval requests (a bank transfer, a sign-in elsewhere) waiting for the identity,
    /// oldest first. Listing is signed with the PIN too: nobody else learns what waits.
    public func pendingApprovals(server: String, userId: String? = nil, pin: String) async throws(ZKPinKitError) -> [PendingApproval] {
        let service = try await service(at: server)
        return try await run { () async throws(ClientError) -> [PendingApproval] in
            let identity = try identity(userId, service: service, login: Login(connection: connection, store: store), accessCode: nil)
            return try await Approvals(connection: connection, store: store).pending(identity: identity, service: service, pin: PIN(parsing: pin))
        }
    }

    /// Approves or denies `request` with a signature of the identity; returns the server's status.
    @discardableResult
    public func answer(
        _ request: PendingApproval, approve: Bool, server: String, userId: String? = nil, pin: String
    ) async throws(ZKPinKitError) -> String {
        let service = try await service(at: server)
        return try await run { () async throws(ClientError) -> String in
            let identity = try identity(userId, service: service, login: Login(connection: connection, store: store), accessCode: nil)
            return try await Approvals(connection: connection, store: store)
                .answer(request, approve: approve, identity: identity, service: service, pin: PIN(parsing: pin))
        }
    }

    // MARK: Devices

    /// The devices (Web Push subscriptions) of the identity, proved by its holder proof (the
    /// value the last sign-in stored), not by the PIN.
    public func devices(server: String, userId: String? = nil) async throws(ZKPinKitError) -> [PushSubscriptionView] {
        let service = try await service(at: server)
        return try await run { () async throws(ClientError) -> [PushSubscriptionView] in
            let identity = try identity(userId, service: service, login: Login(connection: connection, store: store), accessCode: nil)
            return try await PushSubscriptions(connection: connection).list(identity: identity, service: service)
        }
    }

    /// Removes the device `id` (or endpoint); returns the devices left.
    @discardableResult
    public func removeDevice(_ id: String, server: String, userId: String? = nil) async throws(ZKPinKitError) -> [PushSubscriptionView] {
        let service = try await service(at: server)
        return try await run { () async throws(ClientError) -> [PushSubscriptionView] in
            let identity = try identity(userId, service: service, login: Login(connection: connection, store: store), accessCode: nil)
            return try await PushSubscriptions(connection: connection).unsubscribe(id, identity: identity, service: service)
        }
    }

    // MARK: Helpers

    /// The identity to use on `service`: `userId`'s, or the only one that can sign in there.
    func identity(_ userId: String?, service: Service, login: Login, accessCode: String?) throws(ClientError) -> Identity {
        let candidates = try login.candidates(service: service)
        guard let chosen = try login.choose(among: candidates, user: userId, server: service.base) else {
            throw .ambiguousIdentity(server: service.base, userIds: candidates.filter(\.canSignIn).map(\.userId))
        }
        return chosen
    }

    /// A new PIN: 4 digits (a trivial one is the person's choice: see `weakness(ofPIN:)`).
    static func validNewPIN(_ text: String) throws(ClientError) -> PIN { try PIN(parsing: text) }

    /// Why a new PIN is easy to guess (1111, 1234, 2580), for a warning; nil when it is not,
    /// or when it is not 4 digits (the call that takes it says so).
    public static func weakness(ofPIN text: String) -> String? {
        guard let pin = try? PIN(parsing: text) else { return nil }
        return TrivialPIN.reason(pin)
    }

    /// Runs a flow, its `ClientError` as a `ZKPinKitError`.
    func run<T>(_ body: () async throws(ClientError) -> T) async throws(ZKPinKitError) -> T {
        do { return try await body() } catch { throw ZKPinKitError(error) }
    }
}
