import Foundation

/// Where a device keeps its identities: the command's SQLite file, an app's Keychain or a file.
/// A store implements three primitives; the changes the flows make (below) are written once on
/// top of them, so every store keeps the same rules. The token and the DVS key leave a store
/// only into the flows that sign with them.
public protocol IdentityStore: Sendable {
    /// Where the identities are, for messages (a path, "the Keychain").
    var location: String { get }

    /// Every identity, ordered by server, then user.
    func all() throws(ClientError) -> [Identity]

    /// Runs `change` on the identity (server, userId), nil when there is none, and stores what it
    /// leaves (nil deletes), all in one transaction: a failure changes nothing.
    func modify<Result>(server: String, userId: String, _ change: (inout Identity?) -> Result) throws(ClientError) -> Result

    /// Deletes the identity `userId` on `server`, or on every server when nil; returns how many.
    func delete(userId: String, server: String?) throws(ClientError) -> Int
}

extension IdentityStore {
    public func find(userId: String, server: String) throws(ClientError) -> Identity? {
        try all().first { $0.server == server && $0.userId == userId }
    }

    public func identities(server: String) throws(ClientError) -> [Identity] {
        try all().filter { $0.server == server }
    }

    public func identities(userId: String) throws(ClientError) -> [Identity] {
        try all().filter { $0.userId == userId }
    }

    /// Records a registration the server has just started. An existing token stays usable
    /// until `completeRegistration` replaces it.
    public func beginRegistration(
        server: String, userId: String, deviceName: String?, serviceName: String?,
        curve: String, mpinId: String, regOTT: String, expires: String, signingKey: String? = nil,
        now: Date = Date()
    ) throws(ClientError) {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored else {
                var identity = Identity(
                    server: server, userId: userId, deviceName: deviceName, serviceName: serviceName,
                    curve: curve, state: .startedRegistration, pendingMpinId: mpinId,
                    pendingRegOTT: regOTT, pendingExpires: expires, createdAt: now, updatedAt: now
                )
                identity.pendingSigningKey = signingKey
                stored = identity
                return
            }
            identity.pendingSigningKey = signingKey
            identity.pendingMpinId = mpinId
            identity.pendingRegOTT = regOTT
            identity.pendingExpires = expires
            identity.deviceName = deviceName ?? identity.deviceName
            identity.serviceName = serviceName ?? identity.serviceName
            if !identity.canSignIn {
                identity.state = .startedRegistration
                identity.curve = curve
            }
            identity.updatedAt = now
            stored = identity
        }
    }

    /// Notes that the server activated the pending registration `mpinId`.
    public func markActivated(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored, identity.pendingMpinId == mpinId, !identity.canSignIn else { return }
            identity.state = .activated
            identity.updatedAt = now
            stored = identity
        }
    }

    /// Stores the token of the pending registration `mpinId` and clears the pending fields,
    /// in one transaction. Returns false (and changes nothing) when that registration is no
    /// longer the pending one, e.g. a newer `register` replaced it meanwhile.
    @discardableResult
    public func completeRegistration(
        server: String, userId: String, mpinId: String, token: String, curve: String, holder: String? = nil,
        now: Date = Date()
    ) throws(ClientError) -> Bool {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored, identity.pendingMpinId == mpinId else { return false }
            identity.mpinId = mpinId
            identity.token = token
            identity.signingKey = identity.pendingSigningKey
            identity.pendingSigningKey = nil
            identity.holder = holder  // the new mpinId's proof (given with share 1), never another's
            identity.curve = curve
            identity.state = .registered
            identity.pendingMpinId = nil
            identity.pendingRegOTT = nil
            identity.pendingExpires = nil
            identity.updatedAt = now
            stored = identity
            return true
        }
    }

    /// Forgets a pending registration the server refused or let expire (the token, if any,
    /// stays).
    public func dropPendingRegistration(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored, identity.pendingMpinId == mpinId else { return }
            identity.pendingMpinId = nil
            identity.pendingRegOTT = nil
            identity.pendingExpires = nil
            if !identity.canSignIn && identity.state != .blocked && identity.state != .revoked { identity.state = .invalid }
            identity.updatedAt = now
            stored = identity
        }
    }

    /// The server blocked `mpinId`: the identity goes to state BLOCKED, so that listings explain
    /// what happened and logins ask the server before any PIN prompt. The token stays (M-Pin
    /// clients usually delete it): without the PIN it proves nothing, the server refuses it
    /// while the identity is blocked, and it is what makes an operator's `admin unblock` useful.
    public func markBlocked(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored, identity.mpinId == mpinId else { return }
            identity.state = .blocked
            identity.updatedAt = now
            stored = identity
        }
    }

    /// The server refused `mpinId` as revoked or unknown (403): keep the identity and its token
    /// (the server decides, and a token proves nothing by itself) in state REVOKED, so that later
    /// logins say so without asking for a PIN and listings show it.
    public func markRevoked(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored, identity.mpinId == mpinId, identity.state == .registered else { return }
            identity.state = .revoked
            identity.updatedAt = now
            stored = identity
        }
    }

    /// The server answered pass 1 again for a BLOCKED or REVOKED `mpinId` (an operator unblocked
    /// or reinstated it): REGISTERED again, with the token it kept.
    public func markReinstated(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored, identity.mpinId == mpinId, identity.token != nil,
                identity.state == .blocked || identity.state == .revoked
            else { return }
            identity.state = .registered
            identity.updatedAt = now
            stored = identity
        }
    }

    /// Replaces the token of `mpinId` after a change of PIN; false (nothing changed) when the
    /// identity no longer holds that mpinId or cannot sign in.
    @discardableResult
    public func replaceToken(
        server: String, userId: String, mpinId: String, token: String,
        now: Date = Date()
    ) throws(ClientError) -> Bool {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored, identity.mpinId == mpinId, identity.canSignIn else { return false }
            identity.token = token
            identity.updatedAt = now
            stored = identity
            return true
        }
    }

    /// A successful login: its time, and the holder proof the server gave with it (when any).
    public func recordLogin(server: String, userId: String, holder: String? = nil, now: Date = Date()) throws(ClientError) {
        try modify(server: server, userId: userId) { stored in
            guard var identity = stored else { return }
            identity.lastLoginAt = now
            identity.updatedAt = now
            identity.holder = holder ?? identity.holder
            stored = identity
        }
    }
}
