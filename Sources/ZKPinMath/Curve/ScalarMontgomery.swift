/// Montgomery arithmetic modulo an odd public modulus on `[UInt64]` limbs (the group order r
/// of the secret scalars), for the one place the client needs a product mod r: the Fermat
/// inverse of a DVS key. Written for constant time, not speed: the products (CIOS, carries
/// computed from the bits, a masked final subtraction) run the same instructions whatever the values, and
/// `power` reads its table at indices taken from the public exponent only.
struct ScalarMontgomery {
    let modulus: [UInt64]
    /// -modulus^-1 mod 2^64.
    let negativeInverse: UInt64
    /// R^2 mod modulus (R = 2^(64·limbs)): a product with it moves a value into Montgomery form.
    let rSquared: [UInt64]
    /// The 16 powers x^0...x^15 (Montgomery form) of the last `power` call, kept to be wiped.
    private var table: [[UInt64]] = []

    init(modulus: [UInt64]) {
        precondition(modulus[0] & 1 == 1, "Montgomery arithmetic needs an odd modulus")
        self.modulus = modulus
        // Newton's iteration x·(2 - m·x) doubles the bits of m^-1 mod 2^64 that are right; an
        // odd m is its own inverse mod 8 (3 bits): five steps give 96 >= 64.
        var inverse = modulus[0]
        for _ in 0..<5 { inverse = inverse &* (2 &- modulus[0] &* inverse) }
        negativeInverse = 0 &- inverse
        // 2^(2·64·n) mod m by doubling 1 (public work on a public modulus).
        var value = [UInt64](repeating: 0, count: modulus.count)
        value[0] = 1
        for _ in 0..<(2 * 64 * modulus.count) {
            value = LimbArithmetic.modularSum(value, value, modulus: modulus)
        }
        rSquared = value
    }

    /// a·b·R^-1 mod m for a, b < m (CIOS). Every carry and the final subtraction's choice are
    /// computed from the bits and masks: a release build turned the Bool carries of
    /// `addingReportingOverflow` into branches on the values (tools/check-constant-time saw it).
    func product(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let n = modulus.count
        var t = [UInt64](repeating: 0, count: n)
        var top: UInt64 = 0
        for i in 0..<n {
            // t += a·b[i]
            var carry: UInt64 = 0
            for j in 0..<n {
                (t[j], carry) = Self.multiplyAdd(a[j], b[i], t[j], carry)
            }
            let (topSum, topCarry) = Self.multiplyAdd(top, 1, carry, 0)
            // t = (t + q·m) / 2^64, q chosen so that the low limb vanishes.
            let q = t[0] &* negativeInverse
            (_, carry) = Self.multiplyAdd(q, modulus[0], t[0], 0)
            for j in 1..<n {
                (t[j - 1], carry) = Self.multiplyAdd(q, modulus[j], t[j], carry)
            }
            let (last, lastCarry) = Self.multiplyAdd(topSum, 1, carry, 0)
            t[n - 1] = last
            top = topCarry &+ lastCarry
        }
        // t - m, kept when t >= m or when the top overflowed (t < 2m).
        var reduced = t
        var borrow: UInt64 = 0
        for j in 0..<n {
            // t - m - borrow = t + ~m + (1 - borrow); its carry out is 1 - the borrow out.
            let (carry, difference) = UInt64.sumWithoutFlags(t[j], ~modulus[j], carry: 1 &- borrow)
            reduced[j] = difference
            borrow = 1 &- carry
        }
        let keep = 0 &- (top | (borrow ^ 1))
        for j in 0..<n { t[j] = (reduced[j] & keep) | (t[j] & ~keep) }
        return t
    }

    /// (low, high) of a·b + c + d, which fits in 128 bits.
    @inline(__always)
    static func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (UInt64, UInt64) {
        let (high, low) = UInt64.productSumWithoutFlags(a, b, c, d)
        return (low, high)
    }

    /// x^e mod m for x < m and a public exponent e (little-endian limbs), by fixed windows of
    /// four bits from the top: four squarings and one product with table[window] per window,
    /// table[0] = 1 included, so the products depend on e's length alone.
    @inline(never)  // a function of its own: tools/check-constant-time counts inside it
    mutating func power(_ x: [UInt64], exponent: [UInt64]) -> [UInt64] {
        let n = modulus.count
        var one = [UInt64](repeating: 0, count: n)
        one[0] = 1
        wipe()
        table = [product(one, rSquared), product(x, rSquared)]
        for k in 2..<16 { table.append(product(table[k - 1], table[1])) }
        var result = table[0]
        for window in stride(from: exponent.count * 16 - 1, through: 0, by: -1) {
            for _ in 0..<4 { result = product(result, result) }
            let bits = Int((exponent[window / 16] >> UInt64(4 * (window % 16))) & 0xf)
            result = product(result, table[bits])
        }
        return product(result, one)
    }

    /// Overwrites the powers of the last `power` call with zeros.
    mutating func wipe() {
        for k in table.indices {
            for i in table[k].indices { table[k][i] = 0 }
        }
        table = []
    }
}
