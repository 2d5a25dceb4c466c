import ZKPinProtocol
import ZKPinWire

/// A change of PIN, on this device alone: TOKEN' = TOKEN + old·A - new·A (mpin-crypto.md). The
/// server never learns a PIN, so the old one is first proved to it by a login without an
/// access code (`WID` "0", rps-api.md): a wrong old PIN counts towards the block like any
/// other, and nothing is changed unless the server accepted it.
public struct PINChange: Sendable {
    public let connection: RPSConnection
    public let store: any IdentityStore

    public init(connection: RPSConnection, store: any IdentityStore) {
        self.connection = connection
        self.store = store
    }

    /// The access code of a login that signs no page in.
    static let noAccessCode = "0"

    /// Proves `old` to the server, then stores the token for `new`; returns the stored identity.
    public func change(identity: Identity, service: Service, old: PIN, new: PIN) async throws(ClientError) -> Identity {
        try await proveCurrent(identity: identity, service: service, pin: old)
        return try storeNew(identity: identity, service: service, old: old, new: new)
    }

    /// Proves the current PIN to the server (a login that signs no page in); a wrong one is
    /// `wrongCurrentPIN`, so the new PIN is asked only after this passed.
    public func proveCurrent(identity: Identity, service: Service, pin: PIN) async throws(ClientError) {
        do {
            _ = try await Login(connection: connection, store: store)
                .signIn(identity: identity, service: service, accessCode: Self.noAccessCode, pin: pin)
        } catch {
            if case let .wrongPIN(left) = error { throw .wrongCurrentPIN(attemptsLeft: left) }
            throw error
        }
    }

    /// Stores the token for `new` in place of the one for `old` (proven with `proveCurrent`).
    public func storeNew(identity: Identity, service: Service, old: PIN, new: PIN) throws(ClientError) -> Identity {
        guard new.value != old.value else {
            throw .badInput("The new PIN is the same as the current one; nothing was changed.")
        }
        guard let mpinId = identity.mpinId, let token = identity.token,
            let id = Hex.decode(mpinId), let tokenBytes = Hex.decode(token)
        else {
            throw .notRegistered(userId: identity.userId, state: identity.state, server: identity.server)
        }
        let changed: [UInt8]
        do {
            changed = try service.curve.suite.changePIN(token: tokenBytes, id: id, oldPIN: old.value, newPIN: new.value)
        } catch {
            throw .invalidToken
        }
        guard try store.replaceToken(server: identity.server, userId: identity.userId, mpinId: mpinId, token: Hex.encode(changed)),
            let stored = try store.find(userId: identity.userId, server: identity.server)
        else {
            throw .cancelled(
                "The identity \(identity.userId) changed on this device while the PIN was being changed (a new registration?); the PIN was not changed. Run the command again."
            )
        }
        return stored
    }
}
