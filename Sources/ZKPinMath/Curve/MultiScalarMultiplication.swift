/// Σ k_i·P_i for many affine points and public non-negative scalars by Pippenger's bucket
/// method with signed window digits: per window, one addition per point with a non-zero digit
/// (affine, their inversions shared: `affineBuckets`) and about 2^c additions to sum the
/// buckets, instead of a full scalar multiplication per point. Variable time: public scalars
/// only (batch verification's random coefficients are drawn after the points are fixed, and
/// are never reused).
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
        let bucketCount = 1 << (width - 1)
        let (sums, side) = affineBuckets(points: points, digits: digits, windows: windows, bucketCount: bucketCount)
        var total = JacobianPoint<G>.infinity
        for window in stride(from: windows - 1, through: 0, by: -1) {
            for _ in 0..<width { total = total.doubled }
            // Σ d·bucket[d-1] as a running sum from the top bucket down.
            var running = JacobianPoint<G>.infinity, windowSum = JacobianPoint<G>.infinity
            for bucket in (0..<bucketCount).reversed() {
                let slot = window * bucketCount + bucket
                if let sum = sums[slot] { running = running.adding(affine: sum) }
                if !side[slot].isInfinity { running = running + side[slot] }
                windowSum = windowSum + running
            }
            total = total + windowSum
        }
        return total
    }

    /// Every window's buckets (window-major), each the sum of the points whose digit picks it,
    /// as an affine sum (nil when empty) plus a Jacobian side sum (usually infinity). A bucket's
    /// points are added in pairs, round by round (a tree: about log2 of the largest bucket's
    /// size in rounds), in affine coordinates, and all additions of a round share one
    /// inversion (Montgomery's trick): about 6 products an addition against 11 for a mixed
    /// Jacobian one. A pair with the same x (one point twice, or a point and its negative: two
    /// logins of one identity in a batch) goes into the bucket's Jacobian side sum instead,
    /// whose formulas handle doubling and infinity.
    static func affineBuckets(
        points: [(x: F, y: F)], digits: [Int16], windows: Int, bucketCount: Int
    ) -> (sums: [(x: F, y: F)?], side: [JacobianPoint<G>]) {
        let slots = windows * bucketCount
        // The points of each slot (window, bucket) at work[start[slot]...], by counting sort.
        var start = [Int](repeating: 0, count: slots + 1)
        for index in points.indices {
            for window in 0..<windows where digits[index * windows + window] != 0 {
                start[window * bucketCount + Int(digits[index * windows + window].magnitude)] += 1
            }
        }
        for slot in 0..<slots { start[slot + 1] += start[slot] }
        var work = [(x: F, y: F)](repeating: (.zero, .zero), count: start[slots]), count = [Int](repeating: 0, count: slots)
        for index in points.indices {
            for window in 0..<windows where digits[index * windows + window] != 0 {
                let digit = digits[index * windows + window]
                let slot = window * bucketCount + Int(digit.magnitude) - 1
                work[start[slot] + count[slot]] = digit < 0 ? (points[index].x, -points[index].y) : points[index]
                count[slot] += 1
            }
        }
        var side = [JacobianPoint<G>](repeating: .infinity, count: slots)
        var denominators: [F] = []
        while true {
            // The round's pairs: (work[i], work[i + 1]) for i = start, start + 2, ... in each slot.
            denominators.removeAll(keepingCapacity: true)
            var paired = false
            for slot in 0..<slots where count[slot] >= 2 {
                paired = true
                for i in stride(from: start[slot], to: start[slot] + count[slot] - 1, by: 2) {
                    let (p, q) = (work[i], work[i + 1])
                    if p.x == q.x {
                        side[slot] = side[slot].adding(affine: p).adding(affine: q)
                    } else {
                        denominators.append(q.x - p.x)
                    }
                }
            }
            if !paired { break }
            invertAll(&denominators)
            // Each slot's sums (and its odd point out) written back from its start, in order:
            // the write position never passes the pair being read.
            var k = 0
            for slot in 0..<slots where count[slot] >= 2 {
                var written = start[slot]
                for i in stride(from: start[slot], to: start[slot] + count[slot] - 1, by: 2) {
                    let (p, q) = (work[i], work[i + 1])
                    if p.x == q.x { continue }
                    let lambda = (q.y - p.y) * denominators[k]
                    k += 1
                    let x = lambda.squared - p.x - q.x
                    work[written] = (x, lambda * (p.x - x) - p.y)
                    written += 1
                }
                if count[slot] % 2 == 1 {
                    work[written] = work[start[slot] + count[slot] - 1]
                    written += 1
                }
                count[slot] = written - start[slot]
            }
        }
        return ((0..<slots).map { count[$0] == 1 ? work[start[$0]] : nil }, side)
    }

    /// Every value replaced by its inverse, with one inversion and three products each
    /// (Montgomery's trick). The values are non-zero.
    static func invertAll(_ values: inout [F]) {
        guard !values.isEmpty else { return }
        var prefix = [F]()
        prefix.reserveCapacity(values.count)
        var running = F.one
        for value in values {
            prefix.append(running)
            running = running * value
        }
        var inverse = running.inverse
        for index in values.indices.reversed() {
            let value = values[index]
            values[index] = inverse * prefix[index]
            inverse = inverse * value
        }
    }

    static func bitWidth(_ limbs: [UInt64]) -> Int {
        guard let top = limbs.lastIndex(where: { $0 != 0 }) else { return 0 }
        return 64 * top + 64 - limbs[top].leadingZeroBitCount
    }

    /// The window width c with the lowest estimated cost: per window, an affine addition per
    /// point (weight 6) and, per bucket (2^(c-1)), the running sums' two Jacobian additions
    /// (weight 14). The weights are fitted to instruction counts of batches of 64 logins
    /// (callgrind): by products alone the bucket's share would be about 27, but the affine
    /// rounds carry more overhead per product than the Jacobian formulas.
    static func windowWidth(points: Int, bits: Int) -> Int {
        var best = 2, bestCost = Int.max
        for width in 2...12 {
            let cost = ((bits + 1) / width + 1) * (6 * points + 14 * (1 << (width - 1)))
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
