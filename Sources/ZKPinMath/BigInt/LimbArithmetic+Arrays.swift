/// What the secret scalars need beyond the shared chains, on `[UInt64]` whose width is chosen
/// by the caller (`SecretGLV` works in ten limbs): two's complement signs, public shifts, the
/// low half of a product and big-endian bytes. Shift amounts and widths are public.
extension LimbArithmetic {
    static func powerOfTwo(_ exponent: Int, count: Int) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: count)
        out[exponent / 64] = UInt64(1) << UInt64(exponent % 64)
        return out
    }

    /// The low a.count limbs of a·b (operands as unsigned). `limbs` are public bounds on the
    /// operands' lengths (every limb of a from limbs.a on is zero, likewise b): the loops stop
    /// there whatever the values, so the work depends on the bounds alone.
    static func lowProduct(_ a: [UInt64], _ b: [UInt64], limbs: (a: Int, b: Int)) -> [UInt64] {
        let n = a.count
        var out = [UInt64](repeating: 0, count: n)
        for i in 0..<min(n, limbs.a) {
            var carry: UInt64 = 0
            for j in 0..<min(n - i, limbs.b) {
                // Below 2^128: (2^64 - 1)^2 + 2(2^64 - 1). Carries from the bits, where the Bool
                // carries of addingReportingOverflow compiled to branches on k.
                (carry, out[i + j]) = UInt64.productSumWithoutFlags(a[i], b[j], out[i + j], carry)
            }
            // The row's carry lands on a limb no earlier row has reached.
            if i + limbs.b < n { out[i + limbs.b] = carry }
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

    /// -a when mask is all ones, a when zero: (a XOR mask) + (mask AND 1).
    static func conditionallyNegated(_ a: [UInt64], _ mask: UInt64) -> [UInt64] {
        carryChain(zero(like: a), a, flip: mask, carry: mask & 1).0
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
