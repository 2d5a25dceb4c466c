import ZKPinProtocol
import ZKPinWire

/// A change of PIN, on this device alone: TOKEN' = TOKEN + old·A - new·A (mpin-crypto.md). The
/// server never learns a PIN, so the old one is first proved to it by a login without an
/// access code (`WID` "0", rps-api.md): a wrong old PIN counts towards the block like any
/// other, and nothing is changed unless the server accepted it.
public struct PINChange: Sendable {
    public let connection: RPSConnection
    public let store: IdentityStore

    public init(connection: RPSConnection, store: IdentityStore) {
        self.connection = connection
        self.store = store
    }

    /// The access code of a login that signs no page in.
    static let noAccessCode = "0"

    /// Proves `old` to the server, then stores the token for `new`; returns the stored identity.
    public func change(identity: Identity, service: Service, old: PIN, new: PIN) async throws(ClientError) -> Identity {
        guard new.value != old.value else {
            throw .badInput("The new PIN is the same as the current one; nothing was changed.")
        }
        _ = try await Login(connection: connection, store: store)
            .signIn(identity: identity, service: service, accessCode: Self.noAccessCode, pin: old)
        guard let mpinId = identity.mpinId, let token = identity.token,
            let id = Hex.decode(mpinId), let tokenBytes = Hex.decode(token)
        else {
            throw .notRegistered(userId: identity.userId, state: identity.state)
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
