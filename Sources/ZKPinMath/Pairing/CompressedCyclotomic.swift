/// Karabina's compressed squaring in the cyclotomic subgroup ("Squaring in cyclotomic
/// subgroups", 2013, with the formulas of Aranha, Karabina, Longa, Gebotys and López, 2011).
///
/// Write x = a + b·k + c·k^2 with a = g0 + g1·j, b = g2 + g3·j, c = g4 + g5·j (gi in Fp2). In the
/// cyclotomic subgroup (g2, g3, g4, g5) determine x, and their square costs four Fp2 products
/// instead of Granger–Scott's six (with fewer additions). Getting x back needs a division,
/// so an exponentiation squares compressed values and decompresses only those its exponent's
/// digits pick, with one shared inversion (Montgomery's trick).
@frozen
public struct CompressedCyclotomic<P: TowerParameters>: Sendable, Equatable {
    public var g2: Fp2<P>, g3: Fp2<P>, g4: Fp2<P>, g5: Fp2<P>

    @inlinable
    public init(_ x: Fp12<P>) { g2 = x.c1.c0; g3 = x.c1.c1; g4 = x.c2.c0; g5 = x.c2.c1 }

    /// With ξ the tower's non-residue, A(i,j) = (gi + gj)(gi + ξ·gj), B(i,j) = gi·gj:
    /// h2 = 2(g2 + 3ξ·B45), h3 = 3(A45 - (ξ + 1)·B45) - 2g3, h4 = 3(A23 - (ξ + 1)·B23) - 2g4,
    /// h5 = 2(g5 + 3·B23).
    @inlinable
    public var squared: CompressedCyclotomic { square() }

    @inlinable @inline(never)
    func square() -> CompressedCyclotomic {
        let b45 = g4 * g5, b23 = g2 * g3
        let a45 = (g4 + g5) * (g4 + g5.timesXi)
        let a23 = (g2 + g3) * (g2 + g3.timesXi)
        let xiB45 = b45.timesXi
        var h = self
        h.g2 = (g2 + xiB45.doubled + xiB45).doubled
        h.g3 = Self.tripled(a45 - xiB45 - b45) - g3.doubled
        h.g4 = Self.tripled(a23 - b23.timesXi - b23) - g4.doubled
        h.g5 = (g5 + b23.doubled + b23).doubled
        return h
    }

    @inlinable @inline(__always)
    static func tripled(_ x: Fp2<P>) -> Fp2<P> { x.doubled + x }

    /// The numerator and denominator of g1 = (ξ·g5^2 + 3·g4^2 - 2·g3) / (4·g2), valid when
    /// g2 != 0 (apart, so the cheap denominator can be checked without the numerator).
    @inlinable
    var g1Numerator: Fp2<P> { g5.squared.timesXi + Self.tripled(g4.squared) - g3.doubled }

    @inlinable
    var g1Denominator: Fp2<P> { g2.doubled.doubled }

    /// x from (g2, g3, g4, g5) and g1: g0 = ξ·(2·g1^2 + g2·g5 - 3·g3·g4) + 1.
    @inlinable
    func decompressed(g1: Fp2<P>) -> Fp12<P> {
        let g0 = (g1.squared.doubled + g2 * g5 - Self.tripled(g3 * g4)).timesXi + .one
        return Fp12(Fp4(g0, g1), Fp4(g2, g3), Fp4(g4, g5))
    }
}

extension Fp12 where P: CyclotomicSquaring {
    /// x^e for x in the cyclotomic subgroup and a public 64-bit e, by compressed squarings:
    /// e's signed digits (NAF when that has fewer non-zero digits than binary) pick the powers
    /// x^(2^i) to decompress and multiply; negative digits use the conjugate (the inverse in
    /// this subgroup). Falls back to `cyclotomicPower(word:)` when a denominator is zero
    /// (probability about 1/p) or the exponent has over 16 non-zero digits. No heap.
    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    @usableFromInline
    package func compressedCyclotomicPower(word exponent: UInt64) -> Fp12 {
        let digits = SignedDigits(exponent)
        guard digits.count <= SignedDigits.capacity else { return cyclotomicPower(word: exponent) }
        // Digit 0 multiplies x itself; the others need x^(2^i), squared in compressed form.
        var result = Fp12.one, haveResult = false
        var compressed = CompressedCyclotomic(self)
        var snapshots = SnapshotStore<P>()
        var position = 0
        for index in 0..<digits.count {
            let (bit, negative) = digits[index]
            if bit == 0 {
                result = negative ? conjugate : self
                haveResult = true
                continue
            }
            P.compressedCyclotomicSquare(&compressed, times: bit - position)
            position = bit
            snapshots.append(compressed, negative: negative)
        }
        guard snapshots.count > 0 else { return result }
        // Montgomery's trick: one inversion for all the denominators.
        var prefix = Fp2<P>.one
        for index in 0..<snapshots.count {
            let denominator = snapshots.value(index).g1Denominator
            if denominator.isZero { return cyclotomicPower(word: exponent) }
            prefix = prefix * denominator
            snapshots.setPrefix(index, prefix)
        }
        var inverse = prefix.inverse
        for index in stride(from: snapshots.count - 1, through: 0, by: -1) {
            let value = snapshots.value(index)
            let denominatorInverse = index > 0 ? inverse * snapshots.prefix(index - 1) : inverse
            inverse = inverse * value.g1Denominator
            let power = value.decompressed(g1: value.g1Numerator * denominatorInverse)
            let factor = snapshots.isNegative(index) ? power.conjugate : power
            if haveResult { result *= factor } else { result = factor }
            haveResult = true
        }
        return result
    }
}

/// The exponent's non-zero digits, least significant first: (bit position, negative). NAF
/// when it has fewer non-zero digits than the binary form, else binary.
@usableFromInline
struct SignedDigits {
    @usableFromInline static let capacity = 16
    /// Bit i set: a digit at position i. Two words: a NAF of a 64-bit exponent has 65 digits.
    @usableFromInline var positions = TwoWordMask()
    /// Bit i set: that digit is -1.
    @usableFromInline var negatives = TwoWordMask()
    @usableFromInline var count = 0

    @usableFromInline
    init(_ exponent: UInt64) {
        var naf = TwoWordMask(), nafNegative = TwoWordMask()
        // k in two words too: adding 1 to a run of ones can carry into bit 64.
        var low = exponent, high: UInt64 = 0, bit = 0
        while low != 0 || high != 0 {
            if low & 1 == 1 {
                naf.insert(bit)
                if low & 3 == 3 {
                    nafNegative.insert(bit)
                    let (sum, overflow) = low.addingReportingOverflow(1)
                    low = sum
                    if overflow { high += 1 }
                } else {
                    low -= 1
                }
            }
            (low, high) = ((low >> 1) | (high << 63), high >> 1)
            bit += 1
        }
        if naf.count < exponent.nonzeroBitCount {
            positions = naf
            negatives = nafNegative
        } else {
            positions = TwoWordMask(low: exponent)
        }
        count = positions.count
    }

    /// The index-th non-zero digit from the least significant.
    @usableFromInline
    subscript(index: Int) -> (bit: Int, negative: Bool) {
        var remaining = positions
        for _ in 0..<index { remaining.removeLowest() }
        let bit = remaining.lowest
        return (bit, negatives.contains(bit))
    }
}

/// A set of bit positions 0..<128 in two words (`UInt128` needs iOS 18 and macOS 15).
@usableFromInline
struct TwoWordMask {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: UInt64 = 0

    @usableFromInline init(low: UInt64 = 0) { self.low = low }

    @usableFromInline var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// The lowest position in the set (128 when empty).
    @usableFromInline var lowest: Int { low != 0 ? low.trailingZeroBitCount : 64 + high.trailingZeroBitCount }

    @usableFromInline mutating func insert(_ bit: Int) {
        if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
    }

    @usableFromInline func contains(_ bit: Int) -> Bool {
        bit < 64 ? (low >> UInt64(bit)) & 1 == 1 : (high >> UInt64(bit - 64)) & 1 == 1
    }

    @usableFromInline mutating func removeLowest() {
        if low != 0 { low &= low - 1 } else { high &= high &- 1 }
    }
}

/// Up to 16 compressed powers and their prefix products, in tuples (no heap).
@usableFromInline
struct SnapshotStore<P: TowerParameters> {
    @usableFromInline typealias Sixteen<T> = (T, T, T, T, T, T, T, T, T, T, T, T, T, T, T, T)
    @usableFromInline var values: Sixteen<CompressedCyclotomic<P>>
    @usableFromInline var prefixes: Sixteen<Fp2<P>>
    @usableFromInline var negative: UInt16 = 0
    @usableFromInline var count = 0

    @usableFromInline
    init() {
        let zero = CompressedCyclotomic<P>(.one)
        values = (zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero)
        let one = Fp2<P>.one
        prefixes = (one, one, one, one, one, one, one, one, one, one, one, one, one, one, one, one)
    }

    @usableFromInline
    mutating func append(_ value: CompressedCyclotomic<P>, negative isNegative: Bool) {
        precondition(count < 16)
        withUnsafeMutableBytes(of: &values) { $0.bindMemory(to: CompressedCyclotomic<P>.self)[count] = value }
        if isNegative { negative |= 1 << UInt16(count) }
        count += 1
    }

    // The reads are mutating so that they address the tuple in place (a non-mutating
    // withUnsafeBytes(of:) copies the whole tuple first).
    @usableFromInline
    mutating func value(_ index: Int) -> CompressedCyclotomic<P> {
        withUnsafeMutableBytes(of: &values) { $0.bindMemory(to: CompressedCyclotomic<P>.self)[index] }
    }

    @usableFromInline
    func isNegative(_ index: Int) -> Bool { (negative >> UInt16(index)) & 1 == 1 }

    @usableFromInline
    mutating func setPrefix(_ index: Int, _ value: Fp2<P>) {
        withUnsafeMutableBytes(of: &prefixes) { $0.bindMemory(to: Fp2<P>.self)[index] = value }
    }

    @usableFromInline
    mutating func prefix(_ index: Int) -> Fp2<P> {
        withUnsafeMutableBytes(of: &prefixes) { $0.bindMemory(to: Fp2<P>.self)[index] }
    }
}
