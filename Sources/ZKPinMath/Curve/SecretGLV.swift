/// GLV multiplication of G1 points by secret scalars, in constant time: the decomposition runs on
/// fixed-width limbs (GMP's integers trim and branch on their sizes) with Babai rounding by
/// precomputed constants, and the two half-length scalars, recoded into signed base-32 digits,
/// drive fixed 5-bit windows with masked reads of a table of 0·P..16·P and a masked negation.
package struct SecretGLV<C: PairingCurve>: Sendable {
    /// c_i = round(s_i·k / r) = (k·g_i + 2^(shift-1)) >> shift with g_i = round(|s_i|·2^shift / r),
    /// s_1 = b2 and s_2 = -b1 (public signs).
    let g1, g2: [UInt64]
    let s1Negative, s2Negative: Bool
    let shift: Int
    /// |a1|, |b1|, |a2|, |b2| as limbs with their signs.
    let a1, b1, a2, b2: (magnitude: [UInt64], negative: Bool)
    /// Every half-length scalar of a decomposition is below 2^bits in magnitude.
    let bits: Int
    /// Public bounds on the limbs of the decomposition's products' operands: k (below r), the
    /// rounding constants g_i, the rounded coefficients c_i, and the basis entries.
    let kLimbs, gLimbs, cLimbs, basisLimbs: Int
    /// Signed base-32 digits of a half-length scalar: 5·digits >= bits + 2, so the top digit's
    /// chunk is below 8 and the recoding carries nothing out of it.
    var digits: Int { (bits + 2 + 4) / 5 }
    /// Width of the fixed-width arithmetic.
    static var width: Int { 10 }

    /// For the short basis (a1, b1), (a2, b2) of `G1Endomorphism`.
    init(a1 a1Value: BigInt, b1 b1Value: BigInt, a2 a2Value: BigInt, b2 b2Value: BigInt) {
        let r = C.order
        let shiftBits = r.bitWidth + 64
        g1 = Self.roundingConstant(b2Value, shift: shiftBits)
        g2 = Self.roundingConstant(-b1Value, shift: shiftBits)
        s1Negative = b2Value.isNegative
        s2Negative = (-b1Value).isNegative
        a1 = Self.signedLimbs(a1Value)
        b1 = Self.signedLimbs(b1Value)
        a2 = Self.signedLimbs(a2Value)
        b2 = Self.signedLimbs(b2Value)
        shift = shiftBits
        // (k1, k2) = (α1 - c1)·(a1, b1) + (α2 - c2)·(a2, b2) for the exact coordinates α_i of
        // (k, 0) in the basis, and the rounding leaves |α_i - c_i| <= 1/2 + 2^-64 (the constants'
        // error times k < r is below 2^-64). So |k1| <= (|a1| + |a2|)/2 + 1 and |k2| <= (|b1| +
        // |b2|)/2 + 1, below 2^bits (126 bits on BN254CX, 127 on BLS12-381: 26 digits, where a
        // bound of r's half width plus 8 bits took 28).
        let widest = max(a1Value.magnitude + a2Value.magnitude, b1Value.magnitude + b2Value.magnitude)
        bits = (widest / BigInt(2) + .one).bitWidth
        func limbCount(_ x: BigInt) -> Int { max(1, (x.magnitude.bitWidth + 63) / 64) }
        let largestG = max(BigInt(limbs: g1), BigInt(limbs: g2))
        kLimbs = limbCount(r)
        gLimbs = limbCount(largestG)
        // c_i = (k·g_i + 2^(shift-1)) >> shift < r·g_i / 2^shift + 1.
        cLimbs = limbCount((r * largestG).shiftedRight(shiftBits) + .one)
        basisLimbs = [a1Value, b1Value, a2Value, b2Value].map(limbCount).max()!
        precondition(kLimbs + gLimbs <= Self.width, "the decomposition's width is too small")
    }

    static func signedLimbs(_ x: BigInt) -> (magnitude: [UInt64], negative: Bool) {
        (x.magnitude.limbs(count: width), x.isNegative)
    }

    /// round(|s|·2^shift / r).
    static func roundingConstant(_ s: BigInt, shift: Int) -> [UInt64] {
        let r = C.order
        return ((s.magnitude.shiftedLeft(shift) + r / BigInt(2)) / r).limbs(count: width)
    }

    /// (|k1|, mask1, |k2|, mask2) with k1 + k2·λ ≡ k (mod r); a mask is all ones when its k_i
    /// is negative. k must be reduced mod r.
    func decompose(_ k: [UInt64]) -> ([UInt64], UInt64, [UInt64], UInt64) {
        typealias W = LimbArithmetic
        let half = W.powerOfTwo(shift - 1, count: Self.width)
        let c1 = W.shiftedRight(W.add(W.lowProduct(k, g1, limbs: (kLimbs, gLimbs)), half).0, by: shift)
        let c2 = W.shiftedRight(W.add(W.lowProduct(k, g2, limbs: (kLimbs, gLimbs)), half).0, by: shift)
        // k1 = k - c1·a1 - c2·a2 and k2 = -c1·b1 - c2·b2 with c_i = ±|c_i| (public signs).
        func accumulate(
            _ total: [UInt64], _ c: [UInt64], _ cNegative: Bool,
            _ v: (magnitude: [UInt64], negative: Bool)
        ) -> [UInt64] {
            let term = W.lowProduct(c, v.magnitude, limbs: (cLimbs, basisLimbs))
            return cNegative != v.negative ? W.add(total, term).0 : W.subtract(total, term).0
        }
        var k1 = accumulate(k, c1, s1Negative, a1)
        k1 = accumulate(k1, c2, s2Negative, a2)
        var k2 = accumulate([UInt64](repeating: 0, count: Self.width), c1, s1Negative, b1)
        k2 = accumulate(k2, c2, s2Negative, b2)
        let mask1 = W.negativeMask(k1), mask2 = W.negativeMask(k2)
        return (W.conditionallyNegated(k1, mask1), mask1, W.conditionallyNegated(k2, mask2), mask2)
    }

    /// k = Σ d_i·32^i with d_i in [-16, 15], as magnitudes |d_i| (0...16) and sign masks (all
    /// ones for a negative digit), for a non-negative k below 2^(5·count - 2). Branch-free: each
    /// 5-bit chunk plus the carry c gives d = chunk + c - 32·c' with c' = 1 exactly when
    /// chunk + c >= 16. The caller wipes both arrays.
    static func signedDigits(_ k: [UInt64], count: Int) -> (magnitudes: [UInt64], signs: [UInt64]) {
        var magnitudes = [UInt64](repeating: 0, count: count), signs = [UInt64](repeating: 0, count: count)
        var carry: UInt64 = 0
        for i in 0..<count {
            // The chunk's position is public: only its value is secret.
            let bit = 5 * i, limb = bit / 64, offset = bit % 64
            var chunk = limb < k.count ? k[limb] >> UInt64(offset) : 0
            if offset > 59, limb + 1 < k.count { chunk |= k[limb + 1] << UInt64(64 - offset) }
            let sum = (chunk & 31) &+ carry  // 0...32
            carry = (sum &+ 16) >> 5
            let digit = Int64(bitPattern: sum) &- Int64(bitPattern: carry << 5)  // -16...15
            let sign = UInt64(bitPattern: digit >> 63)
            magnitudes[i] = (UInt64(bitPattern: digit) ^ sign) &- sign
            signs[i] = sign
        }
        return (magnitudes, signs)
    }
}

extension G1Endomorphism {
    /// k·P for P in G1 and a secret k, in constant time: k1·P + k2·φ(P) with the two
    /// half-length scalars in signed 5-bit windows (half the doublings of the full-width
    /// method; a table of 17 entries and 26 windows instead of 16 and 34 of unsigned 4-bit ones).
    public func multiplySecret(_ p: G1Point<C>, by k: BigInt) -> G1Point<C> {
        var reduced = k.mod(C.order).limbs(count: SecretGLV<C>.width)
        defer { for i in 0..<SecretGLV<C>.width { reduced[i] = 0 } }
        return multiplySecret(p, reducedLimbs: reduced)
    }

    /// The GLV halves of k mod r on fixed limbs (no BigInt division): (|k1|, k1 < 0, |k2|,
    /// k2 < 0) with k1 + k2·λ ≡ k (mod r), each magnitude in `count` limbs. For public scalars
    /// on the server's hot paths (the batched verification's r·y).
    package func decompose(_ k: BigInt, limbs count: Int) -> ([UInt64], Bool, [UInt64], Bool) {
        let (k1, mask1, k2, mask2) = secret.decompose(k.mod(C.order).limbs(count: SecretGLV<C>.width))
        return (Array(k1.prefix(count)), mask1 != 0, Array(k2.prefix(count)), mask2 != 0)
    }

    /// k·P for a secret k mod r, GMP-free.
    public func multiplySecret(_ p: G1Point<C>, by k: SecretScalar<C>) -> G1Point<C> {
        var reduced = k.limbs + [UInt64](repeating: 0, count: SecretGLV<C>.width - k.limbs.count)
        defer { for i in 0..<SecretGLV<C>.width { reduced[i] = 0 } }
        return multiplySecret(p, reducedLimbs: reduced)
    }

    /// The multiplication for k < r in `SecretGLV.width` limbs.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    func multiplySecret(_ p: G1Point<C>, reducedLimbs reduced: [UInt64]) -> G1Point<C> {
        let glv = secret
        var (k1, mask1, k2, mask2) = glv.decompose(reduced)
        defer {
            for i in 0..<SecretGLV<C>.width { k1[i] = 0; k2[i] = 0 }
            mask1 = 0; mask2 = 0
        }
        // 0·P..16·P: 8 doublings and 7 additions.
        var table1 = p.multiples(count: 17)
        var table2 = table1.map { apply($0) }
        var (magnitudes1, signs1) = SecretGLV<C>.signedDigits(k1, count: glv.digits)
        var (magnitudes2, signs2) = SecretGLV<C>.signedDigits(k2, count: glv.digits)
        // A negative k_i flips the sign of each of its digits (masks, no branch) instead of
        // negating the table.
        for i in 0..<glv.digits {
            signs1[i] ^= mask1
            signs2[i] ^= mask2
        }
        defer {
            for i in 0..<17 { table1[i] = .infinity; table2[i] = .infinity }
            for i in 0..<glv.digits { magnitudes1[i] = 0; signs1[i] = 0; magnitudes2[i] = 0; signs2[i] = 0 }
        }
        func term(_ table: [G1Point<C>], _ magnitudes: [UInt64], _ signs: [UInt64], _ digit: Int) -> G1Point<C> {
            let entry = G1Point<C>.constantTimeEntry(table, magnitudes[digit])
            return .select(signs[digit], -entry, entry)
        }
        // The top digits start the result: no doublings of the point at infinity.
        let top = glv.digits - 1
        var result = term(table1, magnitudes1, signs1, top) + term(table2, magnitudes2, signs2, top)
        for digit in stride(from: top - 1, through: 0, by: -1) {
            for _ in 0..<5 { result = result.doubled }
            result = result + term(table1, magnitudes1, signs1, digit)
            result = result + term(table2, magnitudes2, signs2, digit)
        }
        return result
    }
}

extension Point {
    /// k·P for P in G1 (hashed or validated) and a secret k: constant-time GLV.
    public func multipliedInG1<C: PairingCurve>(bySecret k: BigInt) -> Point where G == G1<C> {
        C.g1Endomorphism.multiplySecret(self, by: k)
    }

    /// k·P for P in G1 (hashed or validated) and a secret k, GMP-free: constant-time GLV.
    public func multipliedInG1<C: PairingCurve>(bySecret k: SecretScalar<C>) -> Point where G == G1<C> {
        C.g1Endomorphism.multiplySecret(self, by: k)
    }

    /// table[digit] for a secret digit: every entry is read, the match kept by a mask.
    static func constantTimeEntry(_ table: [Point], _ digit: UInt64) -> Point {
        var chosen = Point.infinity
        for entry in 0..<table.count {
            chosen = Point.select(entryMask(entry, digit), table[entry], chosen)
        }
        return chosen
    }
}
