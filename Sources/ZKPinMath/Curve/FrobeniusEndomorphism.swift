/// The p-power Frobenius as an endomorphism of G2 and GT, and the 4-dimensional decomposition of
/// scalars it allows (Galbraith–Lin–Scott; Galbraith–Scott for GT).
///
/// On G2 the endomorphism is ψ(x, y) = (psiX·x̄, psiY·ȳ) (the twist, the p-power Frobenius and the
/// twist back), on GT it is x -> x^p; on both groups it multiplies by λ = p mod r. Writing
/// k = k0 + k1·λ + k2·λ^2 + k3·λ^3 mod r with every |k_i| about r^(1/4) (Babai rounding on the
/// short lattice basis of `tools/gen-curves`, LLL-reduced) turns k·Q into a sum of four quarter-
/// length multiples of Q, ψ(Q), ψ^2(Q), ψ^3(Q): a quarter of the doublings (squarings on GT).
///
/// The four multiples are evaluated together by GLV-SAC (Faz-Hernández, Longa and Sánchez, 2014):
/// k0 (made odd) is recoded into digits ±1 and k1, k2, k3 into digits in {0, the column's sign}, so
/// every column is ± one of 8 precomputed sums; one doubling and one addition per column, every
/// column the same work, the entry read by a masked scan of the 8 and negated by a mask. Together
/// with the fixed-width decomposition (`LimbArithmetic`, no GMP) the whole multiplication is
/// constant time in the scalar. It is valid only for elements of the order-r subgroups (G2 points
/// decoded with full validation, or generated; GT elements), where ψ and x -> x^p act as λ.
public struct FrobeniusEndomorphism<C: PairingCurve>: Sendable {
    /// ψ(x, y) = (psiX·x̄, psiY·ȳ) on the twist.
    public let psiX: Fp2<C.Field>
    public let psiY: Fp2<C.Field>
    /// p mod r, the eigenvalue of ψ on G2 and of x -> x^p on GT.
    package let lambda: BigInt
    /// Four short vectors (b0, ..., b3) with b0 + b1·λ + b2·λ^2 + b3·λ^3 ≡ 0 (mod r), spanning the lattice.
    package let basis: [[BigInt]]
    /// α_j = numerators[j] / r with (1, 0, 0, 0) = Σ α_j·basis[j] (the first row of basis^-1).
    let numerators: [BigInt]
    /// round(|numerators[j]|·2^shift / r) in as many limbs as it needs (a public length), and the
    /// signs of the numerators.
    let rounding: [[UInt64]]
    let roundingNegative: [Bool]
    /// |basis[j][i]| in as many limbs as it needs, and the signs.
    let basisMagnitudes: [[[UInt64]]]
    /// Limbs that hold every rounded quotient c_j = (k·rounding[j] + 2^(shift-1)) >> shift for k < r.
    let quotientLimbs: Int
    let basisNegative: [[Bool]]
    let shift: Int
    /// Every |k_i| of a decomposition is below 2^bits (half the column sums of |basis|, a bound
    /// on Babai rounding's error); the recoding runs over bits + 1 columns.
    package let bits: Int
    /// Width of the fixed-width arithmetic.
    static var width: Int { 10 }

    /// The generator's constants; the basis is checked (rows in the lattice, determinant ±r).
    public init(psiX: Fp2<C.Field>, psiY: Fp2<C.Field>, lambda: BigInt, basis: [[BigInt]]) {
        let r = C.order
        precondition(basis.count == 4 && basis.allSatisfy { $0.count == 4 }, "a 4x4 basis")
        for row in basis {
            var sum = BigInt.zero, power = BigInt.one
            for entry in row {
                sum = sum + entry * power
                power = (power * lambda).mod(r)
            }
            precondition(sum.mod(r).isZero, "a basis row outside the lattice")
        }
        func determinant3(_ m: [[BigInt]]) -> BigInt {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        // Cofactors along the first column: adj(B)[0][j] = C_j0.
        var cofactors = [BigInt]()
        for j in 0..<4 {
            let minor = basis.indices.filter { $0 != j }.map { Array(basis[$0][1...]) }
            let value = determinant3(minor)
            cofactors.append(j % 2 == 0 ? value : -value)
        }
        var determinant = BigInt.zero
        for j in 0..<4 { determinant = determinant + basis[j][0] * cofactors[j] }
        precondition(determinant == r || determinant == -r, "the basis does not span the lattice")
        self.psiX = psiX
        self.psiY = psiY
        self.lambda = lambda.mod(r)
        self.basis = basis
        numerators = determinant == r ? cofactors : cofactors.map { -$0 }
        let shiftBits = r.bitWidth + 64
        shift = shiftBits
        // Trimmed to their significant limbs (public constants), so the products skip zero limbs.
        func trimmed(_ limbs: [UInt64]) -> [UInt64] {
            Array(limbs.prefix(max(1, (limbs.lastIndex { $0 != 0 } ?? 0) + 1)))
        }
        let roundingLimbs = numerators.map { trimmed(SecretGLV<C>.roundingConstant($0, shift: shiftBits)) }
        rounding = roundingLimbs
        let roundingBits = roundingLimbs.map { BigInt(limbs: $0).bitWidth }.max() ?? 0
        quotientLimbs = max(1, (r.bitWidth + roundingBits - shiftBits + 1 + 63) / 64)
        roundingNegative = numerators.map(\.isNegative)
        basisMagnitudes = basis.map { row in row.map { trimmed($0.magnitude.limbs(count: Self.width)) } }
        basisNegative = basis.map { row in row.map(\.isNegative) }
        // k_i = Σ_j (α_j - c_j)·basis[j][i] for the exact coordinates α_j of (k, 0, 0, 0), and
        // the rounding leaves |α_j - c_j| <= 1/2 + 2^-64: |k_i| <= (Σ_j |basis[j][i]|)/2 + 1.
        var widest = 0
        for i in 0..<4 {
            var sum = BigInt.zero
            for j in 0..<4 { sum = sum + basis[j][i].magnitude }
            widest = max(widest, (sum / BigInt(2) + .one).bitWidth)
        }
        bits = widest
        precondition(bits + 1 <= 127, "the recoding keeps the quarter scalars in two limbs")
    }

    /// (k0, k1, k2, k3) with Σ k_i·λ^i ≡ k (mod r), each below 2^bits in magnitude: exact Babai
    /// rounding with GMP (variable time; the reference for tests and public scalars).
    package func decompose(_ k: BigInt) -> [BigInt] {
        let r = C.order
        let reduced = k.mod(r)
        func rounded(_ x: BigInt) -> BigInt { (x + x + r) / (r + r) }
        let c = numerators.map { rounded($0 * reduced) }
        return (0..<4).map { i in
            var value = i == 0 ? reduced : .zero
            for j in 0..<4 { value = value - c[j] * basis[j][i] }
            return value
        }
    }

    /// The same decomposition on fixed-width limbs (two's complement, `width` limbs) for a
    /// secret k < r: the rounding by precomputed constants as `SecretGLV` does (it differs from
    /// exact rounding only where a coordinate is within 2^-64 of a half, still within 2^bits).
    package func decomposeSecret(_ k: [UInt64]) -> [[UInt64]] {
        typealias W = LimbArithmetic
        let half = W.powerOfTwo(shift - 1, count: Self.width)
        // k < r: its low limbs (a public count) carry the value.
        let kLimbs = C.orderLimbs.count
        var c = [[UInt64]]()
        for j in 0..<4 {
            var quotient = W.shiftedRight(W.add(Self.product(k, kLimbs, rounding[j]), half).0, by: shift)
            c.append(Array(quotient[0..<quotientLimbs]))
            for l in quotient.indices { quotient[l] = 0 }
        }
        defer { for j in 0..<4 { for l in c[j].indices { c[j][l] = 0 } } }
        return (0..<4).map { i in
            var value = i == 0 ? k : [UInt64](repeating: 0, count: Self.width)
            for j in 0..<4 {
                // value -= (±c_j)·basis[j][i], signs public.
                let term = Self.product(c[j], c[j].count, basisMagnitudes[j][i])
                value = roundingNegative[j] != basisNegative[j][i] ? W.add(value, term).0 : W.subtract(value, term).0
            }
            return value
        }
    }

    /// The low `width` limbs of a[0..<aCount]·b (schoolbook over the given, public, lengths).
    static func product(_ a: [UInt64], _ aCount: Int, _ b: [UInt64]) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: width)
        for i in 0..<min(aCount, width) {
            var carry: UInt64 = 0
            var j = 0
            while j < b.count && i + j < width {
                let (high, low) = a[i].multipliedFullWidth(by: b[j])
                let (s1, c1) = low.addingReportingOverflow(out[i + j])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                out[i + j] = s2
                carry = high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
                j += 1
            }
            // Position i + b.count is still zero here (earlier rows end below it).
            if i + j < width { out[i + j] = carry }
        }
        return out
    }

    /// The GLV-SAC recoding of four signed quarter scalars (`width` limbs each, |k_i| < 2^bits).
    package struct Recoding {
        /// columns[i]: bit j-1 set when k_j's digit i is non-zero (j = 1, 2, 3).
        package var columns: [UInt8]
        /// negative[i]: all ones when digit i of k0 is -1 (then the column is negated).
        package var negative: [UInt64]
        /// All ones where k_i < 0 (its base is negated).
        package var signs: [UInt64]
        /// All ones when |k0| was even (it was made odd by adding 1, taken off at the end).
        package var even: UInt64

        mutating func wipe() {
            for i in columns.indices { columns[i] = 0; negative[i] = 0 }
            for i in signs.indices { signs[i] = 0 }
            even = 0
        }
    }

    /// Fixed work whatever the values: every step shifts and adds by masks.
    package func recode(_ parts: [[UInt64]]) -> Recoding {
        typealias W = LimbArithmetic
        let count = bits + 1
        var signs = [UInt64](repeating: 0, count: 4)
        // |k_i| as two limbs (lo, hi).
        var low = [UInt64](repeating: 0, count: 4), high = [UInt64](repeating: 0, count: 4)
        for i in 0..<4 {
            signs[i] = W.negativeMask(parts[i])
            var magnitude = W.conditionallyNegated(parts[i], signs[i])
            low[i] = magnitude[0]
            high[i] = magnitude[1]
            for l in magnitude.indices { magnitude[l] = 0 }
        }
        // k0 odd: add 1 when even.
        let evenBit = 1 ^ (low[0] & 1)
        let (sum, overflow) = low[0].addingReportingOverflow(evenBit)
        low[0] = sum
        high[0] = high[0] &+ (overflow ? 1 : 0)  // the carry of an increment: taken only from 2^64 - 1 + 1
        var columns = [UInt8](repeating: 0, count: count)
        var negative = [UInt64](repeating: 0, count: count)
        for i in 0..<count {
            // Digit i of k0 is 2·bit(i+1) - 1, the top digit +1.
            let next = i + 1 < 64 ? (low[0] >> UInt64(i + 1)) & 1 : (high[0] >> UInt64(i + 1 - 64)) & 1
            let negativeBit = i == count - 1 ? 0 : 1 ^ next
            negative[i] = 0 &- negativeBit
            var column: UInt64 = 0
            for j in 1..<4 {
                let bit = low[j] & 1
                column |= bit << UInt64(j - 1)
                // k_j = floor(k_j / 2) + 1 when its digit is -1 (bit set, column negative).
                low[j] = (low[j] >> 1) | (high[j] << 63)
                high[j] >>= 1
                let (incremented, carry) = low[j].addingReportingOverflow(bit & negativeBit)
                low[j] = incremented
                high[j] = high[j] &+ (carry ? 1 : 0)
            }
            columns[i] = UInt8(column)
        }
        for i in 0..<4 { low[i] = 0; high[i] = 0 }
        return Recoding(columns: columns, negative: negative, signs: signs, even: 0 &- evenBit)
    }

    /// Σ k_i·bases[i] in constant time (see the type's comment).
    @_specialize(where C == BN254CX, T == Point<G2<BN254CX>>)
    @_specialize(where C == BLS12_381, T == Point<G2<BLS12_381>>)
    @_specialize(where C == BN254CX, T == Fp12<BN254CXField>)
    @_specialize(where C == BLS12_381, T == Fp12<BLS12_381Field>)
    package func multiply<T: FrobeniusGroupElement>(_ bases: [T], reducedLimbs k: [UInt64]) -> T {
        var parts = decomposeSecret(k)
        var recoding = recode(parts)
        defer {
            for i in 0..<4 { for l in 0..<Self.width { parts[i][l] = 0 } }
            recoding.wipe()
        }
        var signed = (0..<4).map { bases[$0].inverted(if: recoding.signs[$0]) }
        var table = [T](repeating: signed[0], count: 8)
        for bit in 0..<3 {
            let size = 1 << bit
            for index in 0..<size { table[size + index] = T.combine(table[index], signed[bit + 1]) }
        }
        defer { for i in 0..<8 { table[i] = .identityElement }; for i in 0..<4 { signed[i] = .identityElement } }
        func entry(_ column: UInt8) -> T { constantTimeEntry(table, at: UInt64(column), select: T.select) }
        let count = recoding.columns.count
        var result = entry(recoding.columns[count - 1])
        for i in stride(from: count - 2, through: 0, by: -1) {
            result.formDoubled()
            let chosen = entry(recoding.columns[i])
            result.formCombined(with: chosen.inverted(if: recoding.negative[i]))
        }
        return T.combine(result, T.select(recoding.even, signed[0].inverseElement, .identityElement))
    }

    /// ψ(Q) = (psiX·X̄ : psiY·Ȳ : Z̄) in projective coordinates.
    @inlinable
    public func psi(_ q: G2Point<C>) -> G2Point<C> {
        Point(projectiveX: q.x.conjugate * psiX, y: q.y.conjugate * psiY, z: q.z.conjugate)
    }

    /// k·Q for Q in G2 and a secret k < r in `width` limbs.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    func multiplySecret(_ q: G2Point<C>, reducedLimbs k: [UInt64]) -> G2Point<C> {
        let q1 = psi(q), q2 = psi(q1), q3 = psi(q2)
        return multiply([q, q1, q2, q3], reducedLimbs: k)
    }

    /// x^k for x in GT and a secret k < r in `width` limbs.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    func powerSecret(_ x: Fp12<C.Field>, reducedLimbs k: [UInt64]) -> Fp12<C.Field> {
        let x1 = x.frobenius, x2 = x1.frobenius, x3 = x2.frobenius
        return multiply([x, x1, x2, x3], reducedLimbs: k)
    }

    static func limbs(_ k: SecretScalar<C>) -> [UInt64] {
        k.limbs + [UInt64](repeating: 0, count: width - k.limbs.count)
    }
}

/// A group for `FrobeniusEndomorphism.multiply`: G2 points (additive) and GT elements
/// (multiplicative, where the inverse is the conjugate and squaring is cyclotomic: valid in the
/// cyclotomic subgroup only).
package protocol FrobeniusGroupElement {
    static var identityElement: Self { get }
    static func combine(_ a: Self, _ b: Self) -> Self
    var doubledElement: Self { get }
    var inverseElement: Self { get }
    /// The inverse when mask is all ones, self when it is zero, without a branch.
    func inverted(if mask: UInt64) -> Self
    static func select(_ mask: UInt64, _ a: Self, _ b: Self) -> Self
    /// self := combine(self, b) and self := self doubled, in place where the type can (GT: the C
    /// kernels on the value where it lies).
    mutating func formCombined(with b: Self)
    mutating func formDoubled()
}

extension FrobeniusGroupElement {
    @inlinable @inline(__always)
    package mutating func formCombined(with b: Self) { self = Self.combine(self, b) }

    @inlinable @inline(__always)
    package mutating func formDoubled() { self = doubledElement }
}

extension Point: FrobeniusGroupElement {
    @inlinable package static var identityElement: Point { .infinity }
    @inlinable package static func combine(_ a: Point, _ b: Point) -> Point { a + b }
    @inlinable package var doubledElement: Point { doubled }
    @inlinable package var inverseElement: Point { -self }
    @inlinable package func inverted(if mask: UInt64) -> Point { negated(if: mask) }
}

extension Fp12: FrobeniusGroupElement where P: CyclotomicSquaring {
    @inlinable package static var identityElement: Fp12 { .one }
    @inlinable package static func combine(_ a: Fp12, _ b: Fp12) -> Fp12 { a * b }
    @inlinable package var doubledElement: Fp12 { cyclotomicSquared }
    @inlinable package var inverseElement: Fp12 { conjugate }
    @inlinable package func inverted(if mask: UInt64) -> Fp12 { conjugated(if: mask) }
    @inlinable package mutating func formCombined(with b: Fp12) { self *= b }
    @inlinable package mutating func formDoubled() { formCyclotomicSquare() }
}

extension Point {
    /// k·Q for Q in G2 (decoded with full validation, or generated) and a secret k, GMP-free and
    /// constant time: GLS with the 4-dimensional decomposition (`FrobeniusEndomorphism`).
    public func multiplied<C: PairingCurve>(bySecret k: SecretScalar<C>) -> Point where G == G2<C> {
        var limbs = FrobeniusEndomorphism<C>.limbs(k)
        defer { for i in limbs.indices { limbs[i] = 0 } }
        return C.frobeniusEndomorphism.multiplySecret(self, reducedLimbs: limbs)
    }

    /// k·Q for Q in G2 and a secret k (reduced mod r by GMP first, as `multiplied(bySecret:)`
    /// on BigInt does), by GLS in constant time.
    public func multipliedInG2<C: PairingCurve>(bySecret k: BigInt) -> Point where G == G2<C> {
        var limbs = k.mod(C.order).limbs(count: FrobeniusEndomorphism<C>.width)
        defer { for i in limbs.indices { limbs[i] = 0 } }
        return C.frobeniusEndomorphism.multiplySecret(self, reducedLimbs: limbs)
    }
}

extension Pairing {
    /// x^k for x in GT (a pairing value, or any element of Fp12's cyclotomic subgroup of order r)
    /// and a secret k, GMP-free and constant time: cyclotomic squarings and the 4-dimensional
    /// Frobenius decomposition (`FrobeniusEndomorphism`).
    public static func gtPower(_ x: GT, bySecret k: SecretScalar<C>) -> GT {
        var limbs = FrobeniusEndomorphism<C>.limbs(k)
        defer { for i in limbs.indices { limbs[i] = 0 } }
        return C.frobeniusEndomorphism.powerSecret(x, reducedLimbs: limbs)
    }

    /// x^k for x in GT and any integer k (reduced mod r by GMP first), then as above.
    public static func gtPower(_ x: GT, bySecret k: BigInt) -> GT {
        var limbs = k.mod(C.order).limbs(count: FrobeniusEndomorphism<C>.width)
        defer { for i in limbs.indices { limbs[i] = 0 } }
        return C.frobeniusEndomorphism.powerSecret(x, reducedLimbs: limbs)
    }
}
