/// Multi-precision primitives on limb containers, written once for the field elements
/// (`Limbs4`, `Limbs6`) and the secret scalars (`[UInt64]`). Every function runs in time that
/// depends only on the limb count, never on the values: no branch and no loop bound depends on
/// a limb. (GMP's integers trim to their size and branch on it, so they stay with public values.)
@usableFromInline
package enum LimbArithmetic {
    /// a + (b XOR flip) + carry, limb by limb, returning the carry out of the top limb. The one
    /// carry chain: flip 0 adds; flip all ones with carry 1 subtracts (a - b = a + ~b + 1 in
    /// two's complement, the carry out then being 1 exactly when nothing was borrowed).
    @inlinable @inline(__always)
    static func carryChain<L: LimbContainer>(_ a: L, _ b: L, flip: UInt64, carry carryIn: UInt64) -> (L, UInt64) {
        var out = a
        var carry = carryIn
        for i in 0..<a.count {
            // Carries from the bits: Bool carries from addingReportingOverflow compiled to
            // branches on the values in the secret scalars' decomposition.
            (carry, out[i]) = UInt64.sumWithoutFlags(a[i], b[i] ^ flip, carry: carry)
        }
        return (out, carry)
    }

    /// a + b + carry (carry 0 or 1), returning the carry out of the top limb.
    @inlinable @inline(__always)
    package static func add<L: LimbContainer>(_ a: L, _ b: L, carry: UInt64 = 0) -> (L, UInt64) {
        carryChain(a, b, flip: 0, carry: carry)
    }

    /// a - b, returning the borrow out of the top limb.
    @inlinable @inline(__always)
    package static func subtract<L: LimbContainer>(_ a: L, _ b: L) -> (L, UInt64) {
        let (difference, carry) = carryChain(a, b, flip: ~0, carry: 1)
        return (difference, carry ^ 1)
    }

    /// `mask` all ones selects `a`, all zeros selects `b`; no branch on the mask.
    @inlinable @inline(__always)
    package static func select<L: LimbContainer>(_ mask: UInt64, _ a: L, _ b: L) -> L {
        var out = a
        for i in 0..<a.count { out[i] = (a[i] & mask) | (b[i] & ~mask) }
        return out
    }

    /// All ones when a < b (as unsigned numbers of the same limb count): the borrow of a - b.
    @inlinable
    package static func lessThanMask<L: LimbContainer>(_ a: L, _ b: L) -> UInt64 {
        0 &- subtract(a, b).1
    }

    /// Whether a < b, every limb read.
    @inlinable
    package static func lessThan<L: LimbContainer>(_ a: L, _ b: L) -> Bool {
        subtract(a, b).1 == 1
    }

    /// The OR of every limb: zero exactly when the value is zero (no early exit).
    @inlinable @inline(__always)
    package static func orOfLimbs<L: LimbContainer>(_ a: L) -> UInt64 {
        var bits: UInt64 = 0
        for i in 0..<a.count { bits |= a[i] }
        return bits
    }

    /// All ones when every limb is zero.
    @inlinable
    package static func zeroMask<L: LimbContainer>(_ a: L) -> UInt64 {
        let bits = orOfLimbs(a)
        // bits | -bits has its top bit set exactly when bits != 0.
        return ((bits | (0 &- bits)) >> 63) &- 1
    }

    /// A container of a's width with every limb zero.
    @inlinable @inline(__always)
    package static func zero<L: LimbContainer>(like a: L) -> L {
        var out = a
        for i in 0..<a.count { out[i] = 0 }
        return out
    }

    /// a - m when a >= m or when `overflow` (a carry out of a's top limb) is 1, else a: the one
    /// conditional subtraction that brings a value below 2m back below m.
    @inlinable @inline(__always)
    package static func reducedOnce<L: LimbContainer>(_ a: L, modulus m: L, overflow: UInt64 = 0) -> L {
        let (reduced, borrow) = subtract(a, m)
        // Keep the reduced value when the value overflowed or when no borrow occurred.
        let keepReduced = overflow | (borrow ^ 1)
        return select(0 &- keepReduced, reduced, a)
    }

    /// (a + b) mod m for a, b < m.
    @inlinable @inline(__always)
    package static func modularSum<L: LimbContainer>(_ a: L, _ b: L, modulus m: L) -> L {
        let (sum, carry) = add(a, b)
        return reducedOnce(sum, modulus: m, overflow: carry)
    }

    /// (a - b) mod m for a, b < m: m is added back exactly when the subtraction borrowed.
    @inlinable @inline(__always)
    package static func modularDifference<L: LimbContainer>(_ a: L, _ b: L, modulus m: L) -> L {
        let (difference, borrow) = subtract(a, b)
        let correction = select(0 &- borrow, m, zero(like: m))
        return add(difference, correction).0
    }
}
