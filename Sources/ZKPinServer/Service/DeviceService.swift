import Logging

/// One device (identity) of the signed-in person, as the account page lists it.
public struct DeviceView: Sendable, Equatable {
    public var mpinId: String
    public var device: String
    public var state: IdentityState
    public var created: Int
    public var lastLogin: Int?
    /// The identity this session signed in with.
    public var current: Bool
}

/// The account page's devices: the person's identities (the CLI's and the browsers'), and
/// "this device is lost": the person revokes one of their own identities; the revocation is
/// audited (`device_revoke`) and the person is told by mail, so a revocation they did not make
/// (someone at their open session) reaches them.
struct DeviceService: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let audit: AuditTrail
    let mailer: any Mailer
    let logger: Logger

    func devices(userId: String, current: String?) async throws(APIError) -> [DeviceView] {
        try await storage("read identities") { try await $0.identities(userId: userId) }.map {
            DeviceView(
                mpinId: $0.mpinId, device: $0.device, state: $0.state, created: $0.created, lastLogin: $0.lastLogin, current: $0.mpinId == current)
        }
    }

    /// Revokes `mpinId` when it is one of `userId`'s identities; false when it is not theirs
    /// (or was revoked already): nothing changes then.
    func revoke(userId: String, mpinId: String, address: String) async throws(APIError) -> Bool {
        guard let identity = try await storage("read identity", { try await $0.identity(mpinId: mpinId) }),
            identity.userId.lowercased() == userId.lowercased(), identity.state != .revoked
        else { return false }
        let changed = try await storage("revoke identity") {
            try await $0.revoke(IdentitySelection(userId: userId, mpinId: mpinId))
        }
        guard changed > 0 else { return false }
        await audit.record("device_revoke", userId: identity.userId, mpinId: mpinId, address: address, "device=\(identity.device)")
        let mail = AccountNotice.revokedByPerson(
            userId: identity.userId, device: identity.device, serviceName: config.serviceName,
            publicURL: config.publicURL, from: config.mailFrom)
        let mailer = self.mailer, logger = self.logger
        Task {
            do { try await mailer.send(mail) } catch {
                logger.error("revocation notice mail failed", metadata: ["error": "\(error)"])
            }
        }
        return true
    }
}
