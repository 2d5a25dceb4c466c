/// A G1 point's odd multiples in affine coordinates, made once for a point that is multiplied by
/// many public scalars (the server keeps one per identity for y·HID and y·HTID). Four tables:
/// P, 3P, ..., 15P and the same of 2^h·P, 2^(2h)·P and 2^(3h)·P, h a quarter of a GLV half's
/// length. A product k·P = k1·P + k2·φ(P) then splits each half again into four pieces of h bits,
/// ki = Σ piece_t·2^(t·h), on the tables and their images under φ (x -> β·x, taken per addition):
/// eight scalars of h bits, a quarter of the doublings of the plain GLV loop and about as many
/// additions, each a mixed one (7 products and 4 squarings against 11 and 5), and no table built
/// per multiplication. For public scalars only (variable time).
public struct G1OddMultiples<C: PairingCurve>: Sendable {
    public typealias F = Fp<C.Field>
    /// The point itself, with Z = 1 (or infinity).
    public let point: G1Point<C>
    /// (2i+1)·2^(t·h)·P at t·count + i, for t = 0..<tables and i = 0..<count; empty for infinity.
    @usableFromInline let x: [F], y: [F]

    /// The tables of `p`, which must be in G1 (hashed with the cofactor cleared, or decoded and
    /// checked): φ acts as λ only there.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public init(_ p: G1Point<C>) {
        point = p.normalized
        guard !p.isInfinity else {
            (x, y) = ([], [])
            return
        }
        var multiples = [JacobianPoint<G1<C>>]()
        multiples.reserveCapacity(Self.tables * Self.count)
        var base = JacobianPoint(point)
        for table in 0..<Self.tables {
            if table > 0 { for _ in 0..<Self.shift { base = base.doubled } }
            let twice = base.doubled
            multiples.append(base)
            for _ in 1..<Self.count { multiples.append(multiples[multiples.count - 1] + twice) }
        }
        // One inversion for all: x = X/Z^2, y = Y/Z^3. In a group of prime order r, which is
        // above 15·2^(3h), no multiple is infinity, so no Z is zero.
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
        (self.x, self.y) = (x, y)
    }

    /// Each table's size: the odd digits of a width-5 NAF.
    static var count: Int { 8 }

    /// How many tables: the pieces each GLV half splits into.
    static var tables: Int { 4 }

    /// h, each piece's bits: a GLV half (|ki| about sqrt(r)) in `tables` pieces, 32 on both curves.
    static var shift: Int { ((C.order.bitWidth + 1) / 2 + tables - 1) / tables }

    /// k·P for a public k: k = k1 + k2·λ mod r, each half in pieces of h bits, by interleaved
    /// width-5 NAF on the tables; equal to `point.multipliedInG1(byPublic: k)`.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func multiplied(byPublic k: BigInt) -> G1Point<C> {
        guard !x.isEmpty else { return .infinity }
        // On fixed limbs: the BigInt rounding's divisions cost more than the rest of the set-up.
        let (k1, negative1, k2, negative2) = C.g1Endomorphism.decompose(k, limbs: C.orderLimbs.count)
        let pieces1 = Self.pieces(of: BigInt(limbs: k1)), pieces2 = Self.pieces(of: BigInt(limbs: k2))
        let length = (pieces1 + pieces2).map(\.count).max() ?? 0
        let beta = C.g1Endomorphism.beta
        var result = JacobianPoint<G1<C>>.infinity
        for index in stride(from: length - 1, through: 0, by: -1) {
            result = result.doubled
            for table in 0..<Self.tables {
                result = add(pieces1[table], at: index, table: table, negated: negative1, beta: nil, to: result)
                result = add(pieces2[table], at: index, table: table, negated: negative2, beta: beta, to: result)
            }
        }
        return result.projective
    }

    /// The width-5 NAF digits of |k|'s pieces of h bits, least significant piece first (the
    /// last takes what is left of the half).
    static func pieces(of k: BigInt) -> [[Int8]] {
        let magnitude = k.magnitude
        let limbs = magnitude.limbs(count: max(1, (magnitude.bitWidth + 63) / 64))
        // The 64 bits of |k| from bit `start` on.
        func word(at start: Int) -> UInt64 {
            let (index, offset) = (start / 64, UInt64(start % 64))
            let low = index < limbs.count ? limbs[index] >> offset : 0
            let high = offset > 0 && index + 1 < limbs.count ? limbs[index + 1] << (64 - offset) : 0
            return low | high
        }
        let mask: UInt64 = shift >= 64 ? .max : (1 << UInt64(shift)) - 1
        return (0..<tables).map { table in
            let rest = table == tables - 1 ? magnitude.shiftedRight(table * shift).limbs(count: limbs.count) : [word(at: table * shift) & mask]
            return WindowedNAF.digits(of: rest, width: 5)
        }
    }

    /// result + d·(the entry's point) for the digit d of `digits` at `index` (nothing when there
    /// is none or it is 0); its image under φ when `beta` is given (x -> β·x); the point negated
    /// when its half scalar is negative: the entry's y negated once for either sign.
    @inline(__always)
    func add(_ digits: [Int8], at index: Int, table: Int, negated: Bool, beta: F?, to result: JacobianPoint<G1<C>>) -> JacobianPoint<G1<C>> {
        guard index < digits.count, digits[index] != 0 else { return result }
        let digit = digits[index]
        let entry = table * Self.count + Int(digit.magnitude) / 2
        let entryY = (digit < 0) != negated ? -y[entry] : y[entry]
        return result.adding(affine: (beta.map { $0 * x[entry] } ?? x[entry], entryY))
    }
}
