/// A G1 point's odd multiples in affine coordinates, with the x of their images under φ, made
/// once for a point that is multiplied by many public scalars (the server keeps one per identity
/// for y·HID and y·HTID). Two tables: P, 3P, ..., 15P and the same of Q = 2^h·P, h half a GLV
/// half's length. A product k·P = k1·P + k2·φ(P) then splits each half again, ki = lo + hi·2^h,
/// into four scalars of h bits on P, Q, φ(P) and φ(Q): half the doublings of the plain GLV loop
/// and as many additions, each a mixed one (7 products and 4 squarings against 11 and 5), and no
/// table built per multiplication. For public scalars only (variable time).
public struct G1OddMultiples<C: PairingCurve>: Sendable {
    public typealias F = Fp<C.Field>
    /// The point itself, with Z = 1 (or infinity).
    public let point: G1Point<C>
    /// (2i+1)·P at i and (2i+1)·Q at count + i, for i = 0..<count, and β·x of each
    /// (φ((x, y)) = (β·x, y)); empty for infinity.
    @usableFromInline let x: [F], y: [F], phiX: [F]

    /// The tables of `p`, which must be in G1 (hashed with the cofactor cleared, or decoded and
    /// checked): φ acts as λ only there.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public init(_ p: G1Point<C>) {
        point = p.normalized
        guard !p.isInfinity else {
            (x, y, phiX) = ([], [], [])
            return
        }
        var multiples = [JacobianPoint<G1<C>>]()
        multiples.reserveCapacity(2 * Self.count)
        var base = JacobianPoint(point)
        for table in 0..<2 {
            if table == 1 { for _ in 0..<Self.shift { base = base.doubled } }
            let twice = base.doubled
            multiples.append(base)
            for _ in 1..<Self.count { multiples.append(multiples[multiples.count - 1] + twice) }
        }
        // One inversion for all: x = X/Z^2, y = Y/Z^3. In a group of prime order r > 2^h·15 no
        // multiple is infinity, so no Z is zero.
        var zInverses = multiples.map(\.z)
        MultiScalarMultiplication<G1<C>>.invertAll(&zInverses)
        var x = [F](), y = [F]()
        x.reserveCapacity(multiples.count)
        y.reserveCapacity(multiples.count)
        for (multiple, zInverse) in zip(multiples, zInverses) {
            let zz = zInverse.squared
            x.append(multiple.x * zz)
            y.append(multiple.y * zz * zInverse)
        }
        let beta = C.g1Endomorphism.beta
        (self.x, self.y, phiX) = (x, y, x.map { beta * $0 })
    }

    /// Each table's size: the odd digits of a width-5 NAF.
    static var count: Int { 8 }

    /// h: Q = 2^h·P, half the bits of a GLV half (|ki| about sqrt(r)): 64 on both curves.
    static var shift: Int { ((C.order.bitWidth + 1) / 2 + 1) / 2 }

    /// k·P for a public k: k = k1 + k2·λ mod r, each half split at bit h, by interleaved
    /// width-5 NAF on the four tables; equal to `point.multipliedInG1(byPublic: k)`.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func multiplied(byPublic k: BigInt) -> G1Point<C> {
        guard !x.isEmpty else { return .infinity }
        let (k1, k2) = C.g1Endomorphism.decompose(k.mod(C.order))
        let (low1, high1) = Self.split(k1), (low2, high2) = Self.split(k2)
        let length = max(low1.count, high1.count, low2.count, high2.count)
        var result = JacobianPoint<G1<C>>.infinity
        for index in stride(from: length - 1, through: 0, by: -1) {
            result = result.doubled
            result = add(low1, at: index, table: 0, negated: k1.isNegative, x: x, to: result)
            result = add(high1, at: index, table: 1, negated: k1.isNegative, x: x, to: result)
            result = add(low2, at: index, table: 0, negated: k2.isNegative, x: phiX, to: result)
            result = add(high2, at: index, table: 1, negated: k2.isNegative, x: phiX, to: result)
        }
        return result.projective
    }

    /// |k|'s width-5 NAF digits below bit h and from bit h on.
    static func split(_ k: BigInt) -> (low: [Int8], high: [Int8]) {
        let limbs = k.magnitude.limbs(count: max(1, (k.bitWidth + 63) / 64))
        let (whole, part) = (shift / 64, shift % 64)
        var low = Array(limbs.prefix(whole + (part > 0 ? 1 : 0)))
        if part > 0, low.count > whole { low[whole] &= (1 << UInt64(part)) - 1 }
        var high = [UInt64]()
        for index in whole..<max(whole, limbs.count) {
            let next = index + 1 < limbs.count ? limbs[index + 1] : 0
            high.append(part == 0 ? limbs[index] : limbs[index] >> UInt64(part) | next << UInt64(64 - part))
        }
        return (digits(of: low), digits(of: high))
    }

    static func digits(of limbs: [UInt64]) -> [Int8] {
        limbs.isEmpty ? [] : WindowedNAF.digits(of: limbs, width: 5)
    }

    /// result + d·(the entry's point) for the digit d of `digits` at `index` (nothing when there
    /// is none or it is 0), the point negated when its half scalar is negative: the entry's y
    /// negated once for either sign.
    @inline(__always)
    func add(_ digits: [Int8], at index: Int, table: Int, negated: Bool, x: [F], to result: JacobianPoint<G1<C>>) -> JacobianPoint<G1<C>> {
        guard index < digits.count, digits[index] != 0 else { return result }
        let digit = digits[index]
        let entry = table * Self.count + Int(digit.magnitude) / 2
        let entryY = (digit < 0) != negated ? -y[entry] : y[entry]
        return result.adding(affine: (x[entry], entryY))
    }
}
