import ZKPinMath

extension MPin {
    /// M-Pin Full: the client's pairings computed once after PIN extraction.
    public static func clientPrecompute(token: G1, hashedIDPoint a: G1) -> (g1: GT, g2: GT) {
        (Pairing<C>.pairing(token, C.g2Generator), Pairing<C>.pairing(a, C.g2Generator))
    }

    /// h = int(HASH_ALL(...)) mod r.
    public static func keyHashScalar(_ hashAll: [UInt8]) -> BigInt { BigInt(bytes: hashAll).mod(C.order) }

    /// Client key: g = G1·G2^pin, c = trace(g^((rc + h) mod r)) = 3·(g^z).a, W = x·T,
    /// key = SHA-256(c ‖ W.x ‖ W.y)[0..<16]. The PIN is a 14-bit exponent here (no mod 10000).
    /// Both exponents are secret (the PIN, and z from the client's random rc), so both powers
    /// are GT's constant-time ones, not `Fp12.power`, whose time follows the exponent's bits.
    /// T is in G1 (decoded with full validation, or computed from hashed points), so x·T is
    /// the constant-time GLV multiplication.
    public static func clientKey(g1: GT, g2: GT, pin: Int, rc: BigInt, h: BigInt, x: SecretScalar<C>, t: G1) -> [UInt8] {
        let g = g1 * Pairing<C>.gtPower(g2, bySecret: BigInt(pin))
        let z = (rc + h).mod(C.order)
        let c = traceTimesThree(Pairing<C>.gtPower(g, bySecret: z).c0)
        let w = t.multipliedInG1(bySecret: x)
        return keyDigest(c, w)
    }

    /// Server key: c = 3·e(Z + h·A, SS).a, U' = w·(UT or U), key = SHA-256(c ‖ U'.x ‖ U'.y)[0..<16].
    /// A is hashed into G1 and U, UT are decoded with full validation: both products are GLV.
    public static func serverKey(z: G1, serverSecret: G2, w: SecretScalar<C>, h: BigInt, hid: G1, u: G1, ut: G1?) -> [UInt8] {
        let g = Pairing<C>.pairing(z + hid.multipliedInG1(byPublic: h), serverSecret)
        let c = traceTimesThree(g.c0)
        let uPrime = (ut ?? u).multipliedInG1(bySecret: w)
        return keyDigest(c, uPrime)
    }

    static func traceTimesThree(_ a: Fp4<C.Field>) -> Fp4<C.Field> { a + a + a }

    static func keyDigest(_ c: Fp4<C.Field>, _ point: G1) -> [UInt8] {
        let encoded = PointEncoding<C>.encode(point)
        return Array(Digest.sha256(c.bytes + encoded.dropFirst())[0..<16])
    }
}
