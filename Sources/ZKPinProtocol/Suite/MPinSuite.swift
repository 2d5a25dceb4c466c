import ZKPinMath

/// Why an M-Pin operation on bytes could not run.
public enum MPinError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A point failed decoding or validation (result code -14).
    case invalidPoint(field: String, reason: PointDecodingError)
    /// A scalar had the wrong length, was zero, or was not below r.
    case invalidScalar(field: String)
    /// A PIN outside 0...9999.
    case invalidPIN
    /// A time-permit date that is not a positive day number.
    case invalidDate
    /// A signature time that is not positive Unix seconds below 2^32.
    case invalidTime

    public var description: String {
        switch self {
        case let .invalidPoint(field, reason): return "\(field) is not a valid point: \(reason)"
        case let .invalidScalar(field): return "\(field) is not a valid scalar"
        case .invalidPIN: return "a PIN is exactly 4 digits (0000-9999)"
        case .invalidDate: return "a time-permit date is a positive day number"
        case .invalidTime: return "a signature time is positive Unix seconds below 2^32"
        }
    }

    /// The vector result code for this error (-14 for points, -19 otherwise).
    public var resultCode: MPinResultCode {
        if case .invalidPoint = self { return .pointDecodingFailed }
        return .rejected
    }
}

/// The server's verdict on one login.
public struct ServerVerification: Sendable, Equatable {
    public var result: MPinResultCode
    /// entered - registered PIN for a genuine token with a wrong PIN; 0 otherwise. For the
    /// server's own decision only: never send it to a client or write it to a log.
    public var pinError: Int

    public var accepted: Bool { result == .accepted }

    public init(result: MPinResultCode, pinError: Int) { self.result = result; self.pinError = pinError }
}

/// What pass 1 leaves the client holding until pass 2. The random x is kept here only, and
/// `pass2` wipes it.
public final class ClientPass1State: @unchecked Sendable {
    public let u: [UInt8]
    public let ut: [UInt8]?
    var x: [UInt8]
    var sec: [UInt8]

    init(u: [UInt8], ut: [UInt8]?, x: [UInt8], sec: [UInt8]) {
        self.u = u; self.ut = ut; self.x = x; self.sec = sec
    }

    /// A copy with the same x, for a load driver that repeats one identity's pass 1 so that
    /// only pass 2's multiplication is per login. Never for a real client: two logins with the
    /// same x give SEC away to anyone who sees them (V1 - V2 = (y2 - y1)·SEC). Package-only.
    package func copyReusingX() -> ClientPass1State { ClientPass1State(u: u, ut: ut, x: x, sec: sec) }

    /// Zeroes x and SEC.
    public func wipe() {
        for i in x.indices { x[i] = 0 }
        for i in sec.indices { sec[i] = 0 }
        x = []
        sec = []
    }

    deinit { wipe() }
}

/// What `serverVerify` takes, for a batch of logins.
public struct ServerVerifyInput: Sendable {
    public var id: [UInt8]
    public var date: Int
    public var u: [UInt8]
    public var ut: [UInt8]?
    public var v: [UInt8]
    public var y: [UInt8]

    public init(id: [UInt8], date: Int, u: [UInt8], ut: [UInt8]?, v: [UInt8], y: [UInt8]) {
        self.id = id; self.date = date; self.u = u; self.ut = ut; self.v = v; self.y = y
    }
}

/// A decoded and validated server secret, kept by the relying party between logins, with the
/// identities' hashed points of its recent logins (the same identity logs in again and again;
/// its hash to the curve need not be computed every time).
public final class PreparedServerSecret: @unchecked Sendable {
    let point: Any
    public let bytes: [UInt8]
    let identityPoints: IdentityPointCache
    /// The Miller-loop lines of recent DVS signers' Pa (each validated once, when it entered).
    let publicKeyLines = PublicKeyLinesCache()
    /// U and UT validated at pass 1, until pass 2 verifies them (`LoginPointCache`).
    let loginPoints = LoginPointCache()
    /// The identity cache's size when none is chosen (`identityCacheEntries`).
    public static let defaultIdentityCacheEntries = IdentityPointCache.defaultCapacity

    init(point: Any, bytes: [UInt8], identityCacheEntries: Int = defaultIdentityCacheEntries) {
        self.point = point
        self.bytes = bytes
        identityPoints = IdentityPointCache(capacity: identityCacheEntries)
    }

    /// The most identities (per day, with time permits) whose hashed points and tables are kept.
    public var identityCacheEntries: Int { identityPoints.capacity }

    /// The identities kept now (the tests' view of the cache).
    package var identityCacheCount: Int { identityPoints.count }
}

/// The M-Pin operations on byte strings (hex on the wire), for one curve chosen at run time.
/// Get one with `CurveID.suite`.
public protocol MPinSuite: Sendable {
    var curve: CurveID { get }
    /// PGS: bytes of a scalar.
    var scalarByteCount: Int { get }
    /// Bytes of an encoded G1 point (1 + 2·PFS).
    var g1ByteCount: Int { get }
    /// Bytes of an encoded G2 point (4·PFS).
    var g2ByteCount: Int { get }

    /// HASH_ID(ID): PFS bytes.
    func hashID(_ id: [UInt8]) -> [UInt8]
    /// A fresh uniform scalar in [1, r), PGS bytes (a master share, x, y, ...).
    func randomScalar() -> [UInt8]

    // Trusted authorities
    func serverSecretShare(master: [UInt8]) throws(MPinError) -> [UInt8]
    func clientSecretShare(master: [UInt8], id: [UInt8]) throws(MPinError) -> [UInt8]
    func timePermitShare(master: [UInt8], id: [UInt8], date: Int) throws(MPinError) -> [UInt8]
    /// The same shares from HASH_ID(ID) alone, so a trusted authority never needs the identity
    /// (which holds the e-mail address). `hashedID` must be PFS bytes.
    func clientSecretShare(master: [UInt8], hashedID: [UInt8]) throws(MPinError) -> [UInt8]
    func timePermitShare(master: [UInt8], hashedID: [UInt8], date: Int) throws(MPinError) -> [UInt8]

    // Recombination and validation
    func addG1(_ a: [UInt8], _ b: [UInt8]) throws(MPinError) -> [UInt8]
    func addG2(_ a: [UInt8], _ b: [UInt8]) throws(MPinError) -> [UInt8]
    func validateG1(_ point: [UInt8], field: String) throws(MPinError)
    func validateG2(_ point: [UInt8], field: String) throws(MPinError)
    /// Pass 1's full validation of U (and UT). The points are kept with `serverSecret` by their
    /// bytes, so that verifying the same bytes at pass 2 needs no second decode (on curves whose
    /// G1 has a cofactor; elsewhere decoding is only an on-curve check and nothing is kept).
    func validateLoginPoints(u: [UInt8], ut: [UInt8]?, for serverSecret: PreparedServerSecret) throws(MPinError)

    // Client
    func extractPIN(clientSecret: [UInt8], id: [UInt8], pin: Int) throws(MPinError) -> [UInt8]
    /// The token for `newPIN` from the token for `oldPIN` (change of PIN, on the client alone).
    func changePIN(token: [UInt8], id: [UInt8], oldPIN: Int, newPIN: Int) throws(MPinError) -> [UInt8]
    /// Pass 1 with a fresh x. `timePermit` and a `date` > 0 go together.
    func clientPass1(id: [UInt8], token: [UInt8], pin: Int, timePermit: [UInt8]?, date: Int) throws(MPinError) -> ClientPass1State
    /// Pass 2: V for the server's y; wipes the state's secrets.
    func clientPass2(_ state: ClientPass1State, y: [UInt8]) throws(MPinError) -> [UInt8]

    // Relying party
    /// The server secret decoded and its lines computed, with room for `identityCacheEntries`
    /// identities' hashed points (`PreparedServerSecret.defaultIdentityCacheEntries` when not given).
    func prepareServerSecret(_ bytes: [UInt8], identityCacheEntries: Int) throws(MPinError) -> PreparedServerSecret
    /// Verifies a login; decode failures of U, UT or V give result -14. With `date` > 0 the
    /// time-permit path (UT required) is used.
    func serverVerify(
        id: [UInt8], date: Int, serverSecret: PreparedServerSecret,
        u: [UInt8], ut: [UInt8]?, v: [UInt8], y: [UInt8]
    ) -> ServerVerification
    /// `serverVerify` of every login, the equations that hold found together (one product of
    /// two pairings for a batch whose logins all verify; see `MPin.holdingChecks`): each
    /// result equals `serverVerify` of the same inputs.
    func serverVerifyBatch(_ logins: [ServerVerifyInput], serverSecret: PreparedServerSecret) -> [ServerVerification]

    // Designated-verifier signatures (spec section 4.1; MPinCurveSuite+DVS.swift)
    /// A fresh device key z and its Pa = z^-1·Q.
    func dvsKeyPair() -> DVSKeyPair
    /// Pa for a given z (PGS bytes, non-zero, below r).
    func dvsKeyPair(z: [UInt8]) throws(MPinError) -> DVSKeyPair
    /// ID' = ID ‖ Pa, the identity the shares are issued for; Pa is fully validated first.
    func dvsIdentity(id: [UInt8], publicKey: [UInt8]) throws(MPinError) -> [UInt8]
    /// z·P for the recombined client secret (or time permit) of ID': what the signer keeps
    /// instead of CS (TP). `field` names the point in errors.
    func dvsBlind(_ point: [UInt8], z: [UInt8], field: String) throws(MPinError) -> [UInt8]
    /// A signature on `message` at `time` (Unix seconds) with a fresh x; `identity` is ID',
    /// `token` extracted from z·CS. With `date` > 0 the z-blinded `timePermit` is used.
    func dvsSign(
        identity: [UInt8], token: [UInt8], pin: Int, message: [UInt8], time: Int,
        timePermit: [UInt8]?, date: Int
    ) throws(MPinError) -> DVSSignatureBytes
    /// Verifies a signature of the identity ID (without Pa) whose key is `publicKey`:
    /// y recomputed from the signature's time, U (or UT) and `message`; decoding failures of
    /// Pa, U, UT or V give -14; a rejection carries the PIN error as a login does.
    /// With `cachingPublicKey` Pa's validated lines are kept in `serverSecret` for the signer's
    /// next signature (a server); without, they are computed and dropped (one-off checks).
    func dvsVerify(
        id: [UInt8], publicKey: [UInt8], date: Int, serverSecret: PreparedServerSecret,
        message: [UInt8], signature: DVSSignatureBytes, signer: DVSSigner, cachingPublicKey: Bool
    ) -> ServerVerification
}

extension MPinSuite {
    /// The server secret prepared with the identity cache's default size.
    public func prepareServerSecret(_ bytes: [UInt8]) throws(MPinError) -> PreparedServerSecret {
        try prepareServerSecret(bytes, identityCacheEntries: PreparedServerSecret.defaultIdentityCacheEntries)
    }

    /// Verification of a signer that holds the spec's token z·CS − PIN·A (the vectors, Milagro).
    public func dvsVerify(
        id: [UInt8], publicKey: [UInt8], date: Int, serverSecret: PreparedServerSecret,
        message: [UInt8], signature: DVSSignatureBytes
    ) -> ServerVerification {
        dvsVerify(
            id: id, publicKey: publicKey, date: date, serverSecret: serverSecret, message: message, signature: signature, signer: .blindedToken,
            cachingPublicKey: false)
    }

    /// `dvsVerify` of a one-off check: Pa's lines are not kept.
    public func dvsVerify(
        id: [UInt8], publicKey: [UInt8], date: Int, serverSecret: PreparedServerSecret,
        message: [UInt8], signature: DVSSignatureBytes, signer: DVSSigner
    ) -> ServerVerification {
        dvsVerify(
            id: id, publicKey: publicKey, date: date, serverSecret: serverSecret, message: message, signature: signature, signer: signer,
            cachingPublicKey: false)
    }
}
