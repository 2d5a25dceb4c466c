/// A DVS device key pair (spec section 4.1). z is the device's secret, kept with the token;
/// Pa is public and sent at registration, where it becomes part of the identity ID' = ID ‖ Pa.
public struct DVSKeyPair: Sendable {
    /// PGS bytes, in [1, r).
    public var z: [UInt8]
    /// Pa = z^-1·Q, 4·PFS bytes (G2, no prefix).
    public var publicKey: [UInt8]

    public init(z: [UInt8], publicKey: [UInt8]) { self.z = z; self.publicKey = publicKey }

    /// Zeroes z.
    public mutating func wipe() {
        for i in z.indices { z[i] = 0 }
    }
}

/// A DVS signature as bytes: the time it was made, U, UT (with a time permit) and V. The
/// verifier also needs the message, the identity and Pa.
public struct DVSSignatureBytes: Sendable, Equatable {
    /// Unix seconds, hashed as 4 bytes big-endian into the challenge.
    public var time: Int
    public var u: [UInt8]
    public var ut: [UInt8]?
    public var v: [UInt8]

    public init(time: Int, u: [UInt8], ut: [UInt8]? = nil, v: [UInt8]) {
        self.time = time; self.u = u; self.ut = ut; self.v = v
    }
}

/// What a signer keeps, which decides the base of the PIN-error search when a signature is
/// refused (the verification equation is the same).
public enum DVSSigner: Sendable, Equatable {
    /// The spec's token z·CS − PIN·A (section 4.1; Milagro and the vectors). A wrong PIN δ
    /// leaves δ·A in the signing secret: E = F^(−δ) with F = e(y·A + U, Pa).
    case blindedToken
    /// The login token CS − PIN·A with z kept beside it (ZKPin's clients: their login stays in
    /// the fixed-Q batch, and two tokens side by side would let a stolen device test PINs
    /// offline). The signing secret is z·(TOKEN + PIN·A), so a wrong PIN δ adds z·δ·A and
    /// e(·, Pa) takes the z away: E = F^(−δ) with the login's F = e(y·A + U, Q).
    case loginTokenAndKey
}
