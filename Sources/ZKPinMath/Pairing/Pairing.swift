/// The optimal ate pairing e: G1 × G2 -> GT with the full final exponent (p^12 - 1) / r.
public enum Pairing<C: PairingCurve> {
    public typealias GT = Fp12<C.Field>

    /// f^((p^12 - 1) / r) = f^((p^6 - 1)(p^2 + 1)) raised to (p^4 - p^2 + 1) / r.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func finalExponentiation(_ f: GT) -> GT {
        let easy1 = f.conjugate * f.inverse
        let easy = easy1.frobenius.frobenius * easy1
        return easy.power(limbs: C.finalExponentHardPart)
    }

    /// e(P, Q).
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func pairing(_ p: G1Point<C>, _ q: G2Point<C>) -> GT {
        finalExponentiation(MillerLoop<C>.evaluate([(p, q)]))
    }

    /// ∏ e(P_i, Q_i) with one shared final exponentiation.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func product(_ pairs: [(G1Point<C>, G2Point<C>)]) -> GT {
        finalExponentiation(MillerLoop<C>.evaluate(pairs))
    }
}

extension Fp12 {
    /// x^k for any integer k on the cyclotomic subgroup (GT), where x^-1 is the conjugate.
    public func cyclotomicPower(_ k: BigInt) -> Fp12 {
        k.isNegative ? power(-k).conjugate : power(k)
    }
}
