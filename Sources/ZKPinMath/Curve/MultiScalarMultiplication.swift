/// Σ k_i·P_i for many affine points and public non-negative scalars by Pippenger's bucket
/// method with signed window digits: per window, one mixed addition per point with a
/// non-zero digit and about 2^c additions to sum the buckets, instead of a full scalar
/// multiplication per point. Variable time: public scalars only (batch verification's random
/// coefficients are drawn after the points are fixed, and are never reused).
public enum MultiScalarMultiplication<G: CurveGroup> {
    public typealias F = G.Coordinate

    /// Σ scalars[i]·points[i]; scalars are little-endian limbs of any length.
    @_specialize(where G == G1<BN254CX>)
    @_specialize(where G == G1<BLS12_381>)
    public static func sum(points: [(x: F, y: F)], scalars: [[UInt64]]) -> JacobianPoint<G> {
        precondition(points.count == scalars.count, "one scalar per point")
        let bits = scalars.reduce(0) { max($0, bitWidth($1)) }
        guard bits > 0 else { return .infinity }
        let width = windowWidth(points: points.count, bits: bits)
        // Enough windows for bits + 2: the top window then holds at most c - 2 bits of the
        // scalar, so even with a carry into it its digit is below 2^(c-1) and carries no further.
        let windows = (bits + 1) / width + 1
        var digits = [Int16](repeating: 0, count: points.count * windows)
        for (index, scalar) in scalars.enumerated() {
            signedDigits(of: scalar, width: width, into: &digits[(index * windows)..<((index + 1) * windows)])
        }
        var buckets = [JacobianPoint<G>](repeating: .infinity, count: 1 << (width - 1))
        var total = JacobianPoint<G>.infinity
        for window in stride(from: windows - 1, through: 0, by: -1) {
            for _ in 0..<width { total = total.doubled }
            for bucket in buckets.indices { buckets[bucket] = .infinity }
            for (index, point) in points.enumerated() {
                let digit = digits[index * windows + window]
                if digit > 0 {
                    buckets[Int(digit) - 1] = buckets[Int(digit) - 1].adding(affine: point)
                } else if digit < 0 {
                    buckets[Int(-digit) - 1] = buckets[Int(-digit) - 1].adding(affine: (point.x, -point.y))
                }
            }
            // Σ d·bucket[d-1] as a running sum from the top bucket down.
            var running = JacobianPoint<G>.infinity, windowSum = JacobianPoint<G>.infinity
            for bucket in buckets.indices.reversed() {
                running = running + buckets[bucket]
                windowSum = windowSum + running
            }
            total = total + windowSum
        }
        return total
    }

    static func bitWidth(_ limbs: [UInt64]) -> Int {
        guard let top = limbs.lastIndex(where: { $0 != 0 }) else { return 0 }
        return 64 * top + 64 - limbs[top].leadingZeroBitCount
    }

    /// The window width c with the fewest estimated additions: per window, one per point and
    /// 2^c for the bucket sums.
    static func windowWidth(points: Int, bits: Int) -> Int {
        var best = 2, bestCost = Int.max
        for width in 2...12 {
            let cost = ((bits + 1) / width + 1) * (points + (1 << width))
            if cost < bestCost { (best, bestCost) = (width, cost) }
        }
        return best
    }

    /// Digits d_j in [-2^(c-1), 2^(c-1)) with Σ d_j·2^(c·j) = k.
    static func signedDigits(of limbs: [UInt64], width: Int, into digits: inout ArraySlice<Int16>) {
        let half = 1 << (width - 1), mask = (1 << width) - 1
        var carry = 0
        for (offset, index) in digits.indices.enumerated() {
            let position = offset * width
            let limb = position / 64, shift = position % 64
            var window = 0
            if limb < limbs.count {
                window = Int(truncatingIfNeeded: limbs[limb] >> UInt64(shift))
                if shift + width > 64, limb + 1 < limbs.count {
                    window |= Int(truncatingIfNeeded: limbs[limb + 1] << UInt64(64 - shift))
                }
                window &= mask
            }
            window += carry
            if window >= half {
                digits[index] = Int16(window - (1 << width))
                carry = 1
            } else {
                digits[index] = Int16(window)
                carry = 0
            }
        }
        precondition(carry == 0, "too few windows for the scalar")
    }
}
