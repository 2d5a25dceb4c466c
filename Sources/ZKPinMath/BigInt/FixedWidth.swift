/// Integers of a fixed number of 64-bit limbs (little-endian), two's complement where signed:
/// the one limb vocabulary of secret scalars (`SecretScalar`, `SecretGLV`). Every function runs
/// in time that depends only on the limb count and on public shift amounts: no branch and no
/// loop bound depends on a value. (GMP's integers trim to their size and branch on it, so they
/// stay with public values.)
enum FixedWidth {
    static func powerOfTwo(_ exponent: Int, count: Int) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: count)
        out[exponent / 64] = UInt64(1) << UInt64(exponent % 64)
        return out
    }

    static func sum(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out = a
        var carry: UInt64 = 0
        for i in 0..<a.count {
            let (s1, c1) = a[i].addingReportingOverflow(b[i])
            let (s2, c2) = s1.addingReportingOverflow(carry)
            out[i] = s2
            carry = (c1 ? 1 : 0) | (c2 ? 1 : 0)
        }
        return out
    }

    static func difference(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out = a
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let (d1, b1) = a[i].subtractingReportingOverflow(b[i])
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            out[i] = d2
            borrow = (b1 ? 1 : 0) | (b2 ? 1 : 0)
        }
        return out
    }

    /// The low a.count limbs of a·b (operands as unsigned).
    static func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let n = a.count
        var out = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            var carry: UInt64 = 0
            for j in 0..<(n - i) {
                let (high, low) = a[i].multipliedFullWidth(by: b[j])
                let (s1, c1) = low.addingReportingOverflow(out[i + j])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                out[i + j] = s2
                carry = high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
            }
        }
        return out
    }

    /// a >> bits (logical), for a public bit count.
    static func shiftedRight(_ a: [UInt64], by bits: Int) -> [UInt64] {
        let n = a.count, limbShift = bits / 64, bitShift = UInt64(bits % 64)
        var out = [UInt64](repeating: 0, count: n)
        for i in 0..<n where i + limbShift < n {
            let low = a[i + limbShift] >> bitShift
            let high = (bitShift == 0 || i + limbShift + 1 >= n) ? 0 : a[i + limbShift + 1] << (64 - bitShift)
            out[i] = low | high
        }
        return out
    }

    /// All ones when a is negative (top bit set).
    static func negativeMask(_ a: [UInt64]) -> UInt64 { 0 &- (a[a.count - 1] >> 63) }

    /// -a when mask is all ones, a when zero: (a XOR mask) - mask.
    static func conditionallyNegated(_ a: [UInt64], _ mask: UInt64) -> [UInt64] {
        var out = a
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let flipped = a[i] ^ mask
            // Subtract the mask as a whole number: all ones is -1, so this adds 1 when negating.
            let (d1, b1) = flipped.subtractingReportingOverflow(mask)
            let (d2, b2) = d1.subtractingReportingOverflow(borrow)
            out[i] = d2
            borrow = (b1 ? 1 : 0) | (b2 ? 1 : 0)
        }
        return out
    }

    /// 2a + bit (bit 0 or 1; the top bit of a is dropped).
    static func doubled(_ a: [UInt64], plus bit: UInt64) -> [UInt64] {
        var out = a
        var carry = bit
        for i in 0..<a.count {
            out[i] = (a[i] << 1) | carry
            carry = a[i] >> 63
        }
        return out
    }

    /// All ones when a < b (as unsigned numbers of the same limb count): the borrow of a - b.
    static func lessThanMask(_ a: [UInt64], _ b: [UInt64]) -> UInt64 {
        var borrow: UInt64 = 0
        for i in 0..<a.count {
            let (d1, b1) = a[i].subtractingReportingOverflow(b[i])
            let (_, b2) = d1.subtractingReportingOverflow(borrow)
            borrow = (b1 ? 1 : 0) | (b2 ? 1 : 0)
        }
        return 0 &- borrow
    }

    /// All ones when every limb is zero.
    static func zeroMask(_ a: [UInt64]) -> UInt64 {
        var bits: UInt64 = 0
        for limb in a { bits |= limb }
        // bits | -bits has its top bit set exactly when bits != 0.
        return ((bits | (0 &- bits)) >> 63) &- 1
    }

    /// `mask` all ones selects a, all zeros b.
    static func select(_ mask: UInt64, _ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var out = a
        for i in 0..<a.count { out[i] = (a[i] & mask) | (b[i] & ~mask) }
        return out
    }

    /// (a + b) mod m for a, b < m < 2^(64·count - 1): the sum, then the sum - m unless that
    /// borrows, selected by mask (one subtraction, always done).
    static func modularSum(_ a: [UInt64], _ b: [UInt64], modulus m: [UInt64]) -> [UInt64] {
        let total = sum(a, b)
        return select(lessThanMask(total, m), total, difference(total, m))
    }

    /// Big-endian bytes as `count` limbs; the bytes must fit (a public length check).
    static func limbs(bigEndian bytes: some Collection<UInt8>, count: Int) -> [UInt64] {
        precondition(bytes.count <= 8 * count, "\(bytes.count) bytes do not fit in \(count) limbs")
        var out = [UInt64](repeating: 0, count: count)
        for (position, byte) in bytes.reversed().enumerated() {
            out[position / 8] |= UInt64(byte) << UInt64(8 * (position % 8))
        }
        return out
    }

    /// The limbs as `count` big-endian bytes (the value must fit: the bytes above are dropped).
    static func bigEndianBytes(_ a: [UInt64], count: Int) -> [UInt8] {
        (0..<count).map { position in
            let index = count - 1 - position
            return index / 8 < a.count ? UInt8(truncatingIfNeeded: a[index / 8] >> UInt64(8 * (index % 8))) : 0
        }
    }
}
