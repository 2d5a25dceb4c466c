import ZKPinMath

/// The M-Pin scheme on curve `C` (spec section 4), on points and scalars. Extensions in the
/// files beside this one hold each party's steps; `MPinCurveSuite` wraps them in bytes.
public enum MPin<C: PairingCurve> {
    public typealias G1 = G1Point<C>
    public typealias G2 = G2Point<C>
    public typealias GT = Fp12<C.Field>

    /// A uniform scalar in [1, r) from the system CSPRNG (GMP-free: it may be a secret).
    public static func randomScalar() -> SecretScalar<C> { SecretScalar.random() }

    /// The PIN as the scalar the scheme uses (pin mod 10000).
    static func pinScalar(_ pin: Int) -> SecretScalar<C> { SecretScalar(UInt64(((pin % 10000) + 10000) % 10000)) }
    /// PIN scalars are below 10000 < 2^14: their multiplications run over 14 bits (constant time
    /// for that public bound) instead of the width of r.
    static var pinBits: Int { 14 }
}

/// Result codes of the test vectors.
public enum MPinResultCode: Int, Sendable {
    case accepted = 0
    case pointDecodingFailed = -14
    case rejected = -19
}
