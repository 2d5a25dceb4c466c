/// The optimal ate pairing e: G1 × G2 -> GT with the full final exponent (p^12 - 1) / r.
public enum Pairing<C: PairingCurve> {
    public typealias GT = Fp12<C.Field>

    /// f^((p^12 - 1) / r) = f^((p^6 - 1)(p^2 + 1)) raised to (p^4 - p^2 + 1) / r.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func finalExponentiation(_ f: GT) -> GT {
        PairingThreadCheck.run()
        let easy = easyPart(f)
        switch C.family {
        case .bn: return bnHardPart(easy)
        case .bls12: return bls12HardPart(easy)
        }
    }

    /// Whether f^((p^12 - 1) / r) == 1, faster than computing it: the hard part is raised to a
    /// multiple m·λ whose chain is cheaper, with m prime to r, so that (f^λ)^m is 1 exactly when
    /// f^λ (of order dividing r) is. BLS12: 3λ = (u-1)^2·(u + p)·(u^2 + p^2 - 1) + 3, all
    /// exponentiations by the sparse u (no dense (u-1)^2/3 factor). BN: m = 2u(6u^2 + 3u + 1),
    /// three multiplications, a squaring and most Frobenius maps fewer than the exact chain.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func finalExponentiationIsOne(_ f: GT) -> Bool {
        PairingThreadCheck.run()
        let easy = easyPart(f)
        switch C.family {
        case .bn: return bnHardPartMultiple(easy).isOne
        case .bls12: return bls12HardPartCubed(easy).isOne
        }
    }

    /// f^(m·λ) for f in the cyclotomic subgroup, m = 2u(6u^2 + 3u + 1) (0 < |m| < r, so prime to
    /// r): Fuentes-Castañeda, Knapp and Rodríguez-Henríquez, "Faster hashing to G2" (2011),
    /// section 4.1, m·λ = c0 + c1·p + c2·p^2 + c3·p^3 with c0 = 1 + 6u + 12u^2 + 12u^3,
    /// c1 = 4u + 6u^2 + 12u^3, c2 = 6u + 6u^2 + 12u^3, c3 = -1 + 4u + 6u^2 + 12u^3: three
    /// exponentiations by u, ten multiplications and three squarings.
    @usableFromInline
    static func bnHardPartMultiple(_ f: GT) -> GT {
        let b = powerU(f).cyclotomicSquared  // f^(2u)
        var a = b.cyclotomicSquared * b  // f^(6u)
        var a2 = powerU(a)  // f^(6u^2)
        a = a * a2  // f^(6u + 6u^2)
        a = a * powerU(a2.cyclotomicSquared)  // f^c2 = f^(6u + 6u^2 + 12u^3)
        let c1 = b.conjugate * a  // f^c1
        a2 = a2 * a * f  // f^c0
        let c3 = f.conjugate * c1  // f^c3
        return a.frobeniusSquared * a2 * c1.frobenius * c3.frobeniusSquared.frobenius
    }

    /// f^(3λ) for f in the cyclotomic subgroup (see `finalExponentiationIsOne`).
    @usableFromInline
    static func bls12HardPartCubed(_ f: GT) -> GT {
        let a = powerU(f) * f.conjugate  // f^(u-1)
        let b = powerU(a) * a.conjugate  // f^((u-1)^2)
        let h = powerU(b) * b.frobenius  // ^(u + p)
        let k = powerU(powerU(h)) * h.frobeniusSquared * h.conjugate  // ^(u^2 + p^2 - 1)
        return k * f.cyclotomicSquared * f
    }

    /// f^((p^6 - 1)(p^2 + 1)): from here on every value is in the cyclotomic subgroup.
    @inlinable @inline(__always)
    static func easyPart(_ f: GT) -> GT {
        let easy1 = f.conjugate * f.inverse
        return easy1.frobeniusSquared * easy1
    }

    /// x^u on the cyclotomic subgroup (u < 0 on both curves: the conjugate of x^|u|).
    @inlinable @inline(__always)
    static func powerU(_ x: GT) -> GT {
        let magnitude = x.compressedCyclotomicPower(word: C.uMagnitude)
        return C.uIsNegative ? magnitude.conjugate : magnitude
    }

    /// BN: (p^4 - p^2 + 1)/r = λ0 + λ1·p + λ2·p^2 + p^3 exactly, with λ2 = 6u^2 + 1,
    /// λ1 = -36u^3 - 18u^2 - 12u + 1, λ0 = -36u^3 - 30u^2 - 18u - 2, evaluated by the addition
    /// chain of Scott et al. (2009) as y0·y1^2·y2^6·y3^12·y4^18·y5^30·y6^36: three
    /// exponentiations by u, thirteen multiplications and four squarings.
    @usableFromInline
    static func bnHardPart(_ f: GT) -> GT {
        let fu = powerU(f), fu2 = powerU(fu), fu3 = powerU(fu2)
        let fp2 = f.frobeniusSquared
        let y0 = f.frobenius * fp2 * fp2.frobenius
        let y1 = f.conjugate
        let y2 = fu2.frobeniusSquared
        let y3 = fu.frobenius.conjugate
        let y4 = (fu * fu2.frobenius).conjugate
        let y5 = fu2.conjugate
        let y6 = (fu3 * fu3.frobenius).conjugate
        var t0 = y6.cyclotomicSquared * y4 * y5
        var t1 = y3 * y5 * t0
        t0 = t0 * y2
        t1 = (t1.cyclotomicSquared * t0).cyclotomicSquared
        t0 = t1 * y1
        t1 = t1 * y0
        return t0.cyclotomicSquared * t1
    }

    /// BLS12: (p^4 - p^2 + 1)/r = ((u-1)^2/3)·(u + p)·(u^2 + p^2 - 1) + 1 exactly. Only for
    /// `family == .bls12`, whose curves are `BLS12Curve`s (one cast per final exponentiation).
    /// f^((u-1)^2/3) is taken as (f^((u-1)/3))^(u-1): one dense exponent of 63 bits and one by
    /// the sparse u (compressed squarings), where the dense (u-1)^2/3 took 126 squarings.
    @usableFromInline
    static func bls12HardPart(_ f: GT) -> GT {
        guard let bls12 = C.self as? any BLS12Curve.Type else { preconditionFailure("\(C.name) is not a BLS12Curve") }
        let third = f.cyclotomicPower(naf: bls12.bls12HardPartThirdNAF)
        let t = C.uIsNegative ? third.conjugate : third  // f^((u-1)/3): u - 1 has u's sign
        let g = powerU(t) * t.conjugate  // f^((u-1)^2/3)
        let h = powerU(g) * g.frobenius
        let k = powerU(powerU(h)) * h.frobeniusSquared * h.conjugate
        return k * f
    }

    /// e(P, Q).
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func pairing(_ p: G1Point<C>, _ q: G2Point<C>) -> GT {
        finalExponentiation(MillerLoop<C>.evaluate(p, q))
    }

    /// e(P, Q) for a prepared Q.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func pairing(_ p: G1Point<C>, _ q: G2Prepared<C>) -> GT {
        finalExponentiation(MillerLoop<C>.evaluate(p, q))
    }

    /// e(P1, Q1)·e(P2, Q2) with one shared final exponentiation.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func product(_ p1: G1Point<C>, _ q1: G2Point<C>, _ p2: G1Point<C>, _ q2: G2Point<C>) -> GT {
        finalExponentiation(MillerLoop<C>.evaluate(p1, q1, p2, q2))
    }

    /// e(P1, Q1)·e(P2, Q2) for prepared Q1 and Q2 (the server's verification).
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func product(_ p1: G1Point<C>, _ q1: G2Prepared<C>, _ p2: G1Point<C>, _ q2: G2Prepared<C>) -> GT {
        finalExponentiation(MillerLoop<C>.evaluate(p1, q1, p2, q2))
    }

    /// ∏ e(P_i, Q_i) with one shared final exponentiation.
    public static func product(_ pairs: [(G1Point<C>, G2Point<C>)]) -> GT {
        finalExponentiation(MillerLoop<C>.evaluate(pairs))
    }
}

extension Fp12 where P: CyclotomicSquaring {
    /// x^k for any integer k on the cyclotomic subgroup (GT), where x^-1 is the conjugate.
    package func cyclotomicPower(_ k: BigInt) -> Fp12 {
        let power = cyclotomicPower(limbs: k.magnitude.limbs(count: max(1, (k.magnitude.bitWidth + 63) / 64)))
        return k.isNegative ? power.conjugate : power
    }
}
