/// A G1 point's odd multiples P, 3P, ..., 15P in affine coordinates, with the x of their
/// images under φ: the two tables of `G1Endomorphism.multiply`, made once for a point that is
/// multiplied by many public scalars (the server keeps one per identity for y·HID and y·HTID).
/// With Z = 1 every addition of the loop is a mixed one (7 products and 4 squarings against 11
/// and 5), and no table is built per multiplication. For public scalars only (variable time).
public struct G1OddMultiples<C: PairingCurve>: Sendable {
    public typealias F = Fp<C.Field>
    /// The point itself, with Z = 1 (or infinity).
    public let point: G1Point<C>
    /// (2i+1)·P for i = 0..<8, and β·x of each (φ((2i+1)·P) = (β·x, y)); empty for infinity.
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
        let first = JacobianPoint(point), twice = first.doubled
        var multiples = [first]
        for _ in 1..<Self.count { multiples.append(multiples[multiples.count - 1] + twice) }
        // One inversion for all: x = X/Z^2, y = Y/Z^3. In a group of prime order r > 15 no
        // multiple is infinity, so no Z is zero.
        var zInverses = multiples.map(\.z)
        MultiScalarMultiplication<G1<C>>.invertAll(&zInverses)
        var x = [F](), y = [F]()
        x.reserveCapacity(Self.count)
        y.reserveCapacity(Self.count)
        for (multiple, zInverse) in zip(multiples, zInverses) {
            let zz = zInverse.squared
            x.append(multiple.x * zz)
            y.append(multiple.y * zz * zInverse)
        }
        let beta = C.g1Endomorphism.beta
        (self.x, self.y, phiX) = (x, y, x.map { beta * $0 })
    }

    /// The table's size: the odd digits of a width-5 NAF.
    static var count: Int { 8 }

    /// k·P for a public k: k1·P + k2·φ(P) with k = k1 + k2·λ mod r, by interleaved width-5 NAF
    /// on the tables; equal to `point.multipliedInG1(byPublic: k)`.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func multiplied(byPublic k: BigInt) -> G1Point<C> {
        guard !x.isEmpty else { return .infinity }
        let (k1, k2) = C.g1Endomorphism.decompose(k.mod(C.order))
        let digits1 = Self.digits(of: k1), digits2 = Self.digits(of: k2)
        var result = JacobianPoint<G1<C>>.infinity
        for index in stride(from: max(digits1.count, digits2.count) - 1, through: 0, by: -1) {
            result = result.doubled
            if index < digits1.count, digits1[index] != 0 {
                result = add(digit: digits1[index], negated: k1.isNegative, x: x, to: result)
            }
            if index < digits2.count, digits2[index] != 0 {
                result = add(digit: digits2[index], negated: k2.isNegative, x: phiX, to: result)
            }
        }
        return result.projective
    }

    static func digits(of k: BigInt) -> [Int8] {
        WindowedNAF.digits(of: k.magnitude.limbs(count: max(1, (k.bitWidth + 63) / 64)), width: 5)
    }

    /// result + d·(the table's point) for an odd digit d, the point negated when its half
    /// scalar is negative: the entry's y negated once for either sign.
    @inline(__always)
    func add(digit: Int8, negated: Bool, x: [F], to result: JacobianPoint<G1<C>>) -> JacobianPoint<G1<C>> {
        let index = Int(digit.magnitude) / 2
        let entryY = (digit < 0) != negated ? -y[index] : y[index]
        return result.adding(affine: (x[index], entryY))
    }
}
