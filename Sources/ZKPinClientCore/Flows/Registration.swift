import Foundation
import ZKPinProtocol
import ZKPinWire

/// Registration by e-mail (the HTTP API, "Registration": openapi.yaml and docs/api.md): ask for an identity, wait until
/// the person confirms the mailed link with the printed code, fetch both client-secret shares,
/// and store only TOKEN = CS - PIN·A.
public struct Registration: Sendable {
    public let connection: RPSConnection
    public let store: any IdentityStore

    public init(connection: RPSConnection, store: any IdentityStore) {
        self.connection = connection
        self.store = store
    }

    /// A registration the server has started.
    public struct Started: Sendable {
        public var identity: Identity
        /// `XXXX-XXXX`, to type on the activation page.
        public var confirmationCode: String
        public var expireTime: String
    }

    /// `PUT /rps/user`; records the pending registration before returning, so `zkpin confirm`
    /// can finish it even if this process dies.
    public func start(email: String, deviceName: String?, service: Service) async throws(ClientError) -> Started {
        let email = try Email.validate(email)
        // Every new identity is signing-capable: a DVS key pair whose Pa becomes part of it.
        let suite = service.curve.suite
        let key = suite.dvsKeyPair()
        let answer = try await connection.send(
            .put, service.registerURL,
            RegisterRequest(userId: email, deviceName: deviceName, mobile: 0, pa: Hex.encode(key.publicKey)))
        guard answer.isSuccess else {
            if answer.status == 400, let error = answer.error {
                throw .badInput("The server refused the registration of \(email): \(error.message). Check the address and try again.")
            }
            throw answer.unexpected()
        }
        let response = try answer.decode(RegisterResponse.self)
        // The server must have minted an identity for this address; anything else is not
        // something to store.
        guard let minted = MPinIdentity.parts(of: response.mpinId, publicKeyBytes: suite.g2ByteCount),
            minted.identity.userID.lowercased() == email.lowercased(), minted.publicKey == nil || minted.publicKey == key.publicKey,
            let code = ConfirmationCode.code(regOTT: response.regOTT)
        else {
            throw .unexpectedResponse(
                url: answer.url, status: answer.status,
                detail: "the new identity is not one for \(email)")
        }
        try store.beginRegistration(
            server: service.base, userId: email, deviceName: deviceName,
            serviceName: service.info.name, curve: service.curve.rawValue,
            mpinId: response.mpinId, regOTT: response.regOTT,
            expires: response.expireTime,
            // A server that ignores pa (older, or Milagro-compatible only) minted a plain identity.
            signingKey: minted.publicKey == nil ? nil : Hex.encode(key.z))
        guard let identity = try store.find(userId: email, server: service.base) else {
            throw .storeUnavailable(path: store.location, reason: "the new registration was not found after saving it")
        }
        return Started(identity: identity, confirmationCode: code, expireTime: response.expireTime)
    }

    /// An activated registration: the whole client secret CS = share 1 + share 2, validated,
    /// and the holder proof the server gave with share 1 (nil from an older server).
    public struct Activation: Sendable {
        public var clientSecret: [UInt8]
        public var holder: String?
    }

    /// The outcome of asking for the shares once.
    public enum Poll: Sendable {
        /// Not activated yet (401).
        case waiting
        case activated(Activation)
    }

    /// Asks for share 1 and, once the identity is activated, share 2 from D-TA 2.
    public func poll(identity: Identity, service: Service) async throws(ClientError) -> Poll {
        guard let mpinId = identity.pendingMpinId, let regOTT = identity.pendingRegOTT else {
            throw .notRegistered(userId: identity.userId, state: identity.state, server: identity.server)
        }
        let answer = try await connection.get(service.signatureURL(mpinId: mpinId), headers: [(Service.regOTTHeader, regOTT)])
        switch answer.status {
        case 200: break
        case 401: return .waiting
        case 400, 403, 404, 410: throw .registrationExpired(userId: identity.userId, server: identity.server)
        default: throw answer.unexpected()
        }
        let share1 = try answer.decode(SignatureResponse.self)
        try store.markActivated(server: identity.server, userId: identity.userId, mpinId: mpinId)

        let dta2Answer = try await connection.get(service.dta2URL("clientSecret", params: share1.params))
        let share2 = try dta2Answer.decode(ClientSecretResponse.self)
        guard let a = Hex.decode(share1.clientSecretShare), let b = Hex.decode(share2.clientSecret) else {
            throw .unexpectedResponse(url: dta2Answer.url, status: dta2Answer.status, detail: "a client-secret share is not hex")
        }
        do {
            let holder = share1.holder.flatMap { $0.utf8.count == 64 && Hex.decode($0) != nil ? $0.lowercased() : nil }
            return .activated(Activation(clientSecret: try service.curve.suite.addG1(a, b), holder: holder))
        } catch {
            throw .unexpectedResponse(
                url: dta2Answer.url, status: dta2Answer.status,
                detail: "the client-secret shares are not valid points (\(error))")
        }
    }

    /// Polls every `interval` until activated or `timeoutSeconds` pass; `progress` gets the
    /// seconds left before each wait.
    public func waitForActivation(
        identity: Identity, service: Service, timeoutSeconds: Int,
        interval: Duration = .seconds(2),
        progress: @Sendable (Int) -> Void = { _ in }
    ) async throws(ClientError) -> Activation {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeoutSeconds)
        while true {
            if case let .activated(activation) = try await poll(identity: identity, service: service) {
                return activation
            }
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                throw .notActivated(userId: identity.userId, waitedSeconds: timeoutSeconds)
            }
            progress(Int(left.components.seconds))
            do { try await Task.sleep(for: min(interval, left)) } catch {
                throw .cancelled("Stopped waiting for the activation of \(identity.userId). Run `zkpin confirm \(identity.userId)` to finish later.")
            }
        }
    }

    /// Extracts the PIN from the client secret and stores the token (and nothing else).
    @discardableResult
    public func finish(identity: Identity, service: Service, clientSecret: [UInt8], pin: PIN, holder: String? = nil) throws(ClientError)
        -> Identity
    {
        guard let mpinId = identity.pendingMpinId, let id = Hex.decode(mpinId) else {
            throw .notRegistered(userId: identity.userId, state: identity.state, server: identity.server)
        }
        let token: [UInt8]
        do {
            token = try service.curve.suite.extractPIN(clientSecret: clientSecret, id: id, pin: pin.value)
        } catch {
            throw .unexpectedResponse(url: service.base, status: 200, detail: "the client secret could not take the PIN (\(error))")
        }
        guard
            try store.completeRegistration(
                server: identity.server, userId: identity.userId, mpinId: mpinId,
                token: Hex.encode(token), curve: service.curve.rawValue, holder: holder),
            let stored = try store.find(userId: identity.userId, server: identity.server)
        else {
            throw .cancelled(
                "A newer registration of \(identity.userId) replaced this one while it ran; nothing was stored. Finish the newer one with `zkpin confirm \(identity.userId)`."
            )
        }
        return stored
    }
}
