import Foundation
import ZKPinWire

/// One stored identity: one row per (server, userId). It holds only the PIN-less token, never
/// a client secret or a PIN. A registration in progress lives in the `pending*` fields so that
/// starting a new one never overwrites a working token until the new token is stored.
public struct Identity: Codable, Sendable, Equatable {
    /// Normalized base URL of the server (`ServerURL.normalize`).
    public var server: String
    /// The e-mail address.
    public var userId: String
    public var deviceName: String?
    /// The service's name from `/service`, for messages.
    public var serviceName: String?
    /// Canonical curve name (`bn254cx`, `bls12-381`).
    public var curve: String
    public var state: UserState
    /// The mpinId (hex) the token belongs to.
    public var mpinId: String?
    /// TOKEN = CS - PIN·A, hex.
    public var token: String?
    /// A registration started but not finished.
    public var pendingMpinId: String?
    public var pendingRegOTT: String?
    /// ISO 8601, as the server sent it.
    public var pendingExpires: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var lastLoginAt: Date?
    /// The holder proof the server gave with the last successful login (sent with pass 1, so
    /// that strangers behind the same address cannot use up this identity's logins).
    public var holder: String? = nil
    /// The DVS key z (hex) of a signing-capable identity (its mpinId is hex(ID ‖ Pa)): signing
    /// uses z·(TOKEN + PIN·A). Like the token it is useless without the PIN, and with the PIN
    /// it adds no offline test of PINs (every check needs the server's secret).
    public var signingKey: String? = nil
    /// The z of the pending registration, moved to `signingKey` with its token.
    public var pendingSigningKey: String? = nil

    /// True when the identity can sign approvals.
    public var canSign: Bool { canSignIn && signingKey != nil }

    public init(
        server: String, userId: String, deviceName: String? = nil, serviceName: String? = nil,
        curve: String, state: UserState, mpinId: String? = nil, token: String? = nil,
        pendingMpinId: String? = nil, pendingRegOTT: String? = nil, pendingExpires: String? = nil,
        createdAt: Date = Date(), updatedAt: Date = Date(), lastLoginAt: Date? = nil
    ) {
        self.server = server; self.userId = userId; self.deviceName = deviceName
        self.serviceName = serviceName; self.curve = curve; self.state = state
        self.mpinId = mpinId; self.token = token; self.pendingMpinId = pendingMpinId
        self.pendingRegOTT = pendingRegOTT; self.pendingExpires = pendingExpires
        self.createdAt = createdAt; self.updatedAt = updatedAt; self.lastLoginAt = lastLoginAt
    }

    /// True when a registration waits for `zkpin confirm`.
    public var hasPendingRegistration: Bool { pendingMpinId != nil && pendingRegOTT != nil }

    /// True when the identity can sign in.
    public var canSignIn: Bool { state == .registered && token != nil && mpinId != nil }
}
