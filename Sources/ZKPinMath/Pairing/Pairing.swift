/// The optimal ate pairing e: G1 × G2 -> GT with the full final exponent (p^12 - 1) / r.
public enum Pairing<C: PairingCurve> {
    public typealias GT = Fp12<C.Field>

    /// f^((p^12 - 1) / r) = f^((p^6 - 1)(p^2 + 1)) raised to (p^4 - p^2 + 1) / r.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func finalExponentiation(_ f: GT) -> GT {
        let easy1 = f.conjugate * f.inverse
        let easy = easy1.frobenius.frobenius * easy1
        switch C.family {
        case .bn: return bnHardPart(easy)
        case .bls12: return bls12HardPart(easy)
        }
    }

    /// x^u on the cyclotomic subgroup (u < 0 on both curves: the conjugate of x^|u|).
    @inlinable
    static func powerU(_ x: GT) -> GT {
        let magnitude = x.power(limbs: (C.u.isNegative ? -C.u : C.u).limbs(count: 1))
        return C.u.isNegative ? magnitude.conjugate : magnitude
    }

    /// BN: (p^4 - p^2 + 1)/r = λ0 + λ1·p + λ2·p^2 + p^3 exactly, with λ2 = 6u^2 + 1,
    /// λ1 = -36u^3 - 18u^2 - 12u + 1, λ0 = -36u^3 - 30u^2 - 18u - 2 (Scott et al. 2009):
    /// three exponentiations by u and Frobenius maps instead of a 760-bit exponent.
    static func bnHardPart(_ f: GT) -> GT {
        let fu = powerU(f), fu2 = powerU(fu), fu3 = powerU(fu2)
        func small(_ x: GT, _ k: Int) -> GT { x.power(limbs: [UInt64(k)]) }
        let a36 = small(fu3, 36).conjugate
        let lambda0 = a36 * small(fu2, 30).conjugate * small(fu, 18).conjugate * f.squared.conjugate
        let lambda1 = a36 * small(fu2, 18).conjugate * small(fu, 12).conjugate * f
        let lambda2 = small(fu2, 6) * f
        return lambda0 * lambda1.frobenius * lambda2.frobenius.frobenius * f.frobenius.frobenius.frobenius
    }

    /// BLS12: (p^4 - p^2 + 1)/r = ((u-1)^2/3)·(u + p)·(u^2 + p^2 - 1) + 1 exactly.
    static func bls12HardPart(_ f: GT) -> GT {
        let g = f.power(limbs: C.bls12HardPartFactor)
        let h = powerU(g) * g.frobenius
        let k = powerU(powerU(h)) * h.frobenius.frobenius * h.conjugate
        return k * f
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
