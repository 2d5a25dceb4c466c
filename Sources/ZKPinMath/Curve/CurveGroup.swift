/// A short-Weierstrass group y^2 = x^3 + b over some coordinate field (a = 0 on both curves).
public protocol CurveGroup: Sendable {
    associatedtype Coordinate: FieldElement
    /// The coefficient b.
    static var b: Coordinate { get }
    /// 3·b, used by the complete addition formulas.
    static var b3: Coordinate { get }
    /// 3·b·x (the complete formulas' products by 3b): `b3 * x` unless the group has a cheaper way.
    static func timesB3(_ x: Coordinate) -> Coordinate
    /// The generator of the prime-order subgroup.
    static var generator: Point<Self> { get }
    /// The prime order r of the subgroup.
    static var order: BigInt { get }
    /// Whether every point on the curve is already in the subgroup (cofactor 1).
    static var cofactorIsOne: Bool { get }
    /// A subgroup test cheaper than r·P == O when the group has one; nil otherwise.
    static func endomorphismSubgroupCheck(_ p: Point<Self>) -> Bool?
    /// `Point`'s complete sum and doubling in a kernel of the field, when it has one (G2 on the
    /// generated fields: `TowerParameters.twistSum`); nil otherwise.
    static func kernelSum(_ p: Point<Self>, _ q: Point<Self>) -> Point<Self>?
    static func kernelDoubled(_ p: Point<Self>) -> Point<Self>?
}

extension CurveGroup {
    @inlinable @inline(__always)
    public static func timesB3(_ x: Coordinate) -> Coordinate { b3 * x }

    @inlinable @inline(__always)
    public static func kernelSum(_ p: Point<Self>, _ q: Point<Self>) -> Point<Self>? { nil }

    @inlinable @inline(__always)
    public static func kernelDoubled(_ p: Point<Self>) -> Point<Self>? { nil }
}

/// G1: the curve over Fp.
public enum G1<C: PairingCurve>: CurveGroup {
    public typealias Coordinate = Fp<C.Field>
    @inlinable public static var b: Coordinate { C.g1B }
    @inlinable public static var b3: Coordinate { C.g1B3 }
    public static var generator: Point<G1<C>> { C.g1Generator }
    public static var order: BigInt { C.order }
    public static var cofactorIsOne: Bool { C.g1CofactorIsOne }

    /// 3b·x by doublings and sums (3b is 6 or 12): a third of a Montgomery product's instructions.
    @inlinable @inline(__always)
    public static func timesB3(_ x: Coordinate) -> Coordinate { x.times(small: C.g1B3Multiple) }

    /// BLS12: P is in G1 iff φ(P) = -u^2·P, with φ(x, y) = (β·x, y) (Scott, "A note on group
    /// membership tests for G1, G2 and GT on BLS pairing-friendly curves", 2021): two
    /// multiplications by the 64-bit |u| instead of one by the 255-bit r.
    public static func endomorphismSubgroupCheck(_ p: Point<G1<C>>) -> Bool? {
        guard let beta = C.g1EndomorphismBeta else { return nil }
        let phi = Point<G1<C>>(projectiveX: beta * p.x, y: p.y, z: p.z)
        let uSquared = p.multiplied(byWord: C.uMagnitude).multiplied(byWord: C.uMagnitude)
        return phi == -uSquared
    }
}

/// G2: the sextic twist over Fp2.
public enum G2<C: PairingCurve>: CurveGroup {
    public typealias Coordinate = Fp2<C.Field>
    @inlinable public static var b: Coordinate { C.g2B }
    @inlinable public static var b3: Coordinate { C.g2B3 }
    public static var generator: Point<G2<C>> { C.g2Generator }
    public static var order: BigInt { C.order }
    public static var cofactorIsOne: Bool { false }
    public static func endomorphismSubgroupCheck(_ p: Point<G2<C>>) -> Bool? { nil }

    /// 3b' = m·(1 ± i) on both curves (`PairingCurve.g2B3Multiple`): (1 ± i)·x by two sums and m·
    /// by doublings and sums, instead of an Fp2 product.
    @inlinable @inline(__always)
    public static func timesB3(_ x: Coordinate) -> Coordinate {
        let t = C.g2B3MinusI ? Fp2(x.c0 + x.c1, x.c1 - x.c0) : Fp2(x.c0 - x.c1, x.c0 + x.c1)
        return t.times(small: C.g2B3Multiple)
    }

    /// The formulas in C, on the point's words in place: a step of g2_mul (a doubling and a
    /// sum) about 20% faster than the Swift formulas, which keep every Fp2 temporary on the
    /// stack across the product calls (g2_mul 10% faster on BLS12-381, 6% on BN254CX).
    @inlinable @inline(__always)
    public static func kernelSum(_ p: Point<G2<C>>, _ q: Point<G2<C>>) -> Point<G2<C>>? {
        C.Field.twistSum((p.x, p.y, p.z), (q.x, q.y, q.z)).map { Point(projectiveX: $0.0, y: $0.1, z: $0.2) }
    }

    @inlinable @inline(__always)
    public static func kernelDoubled(_ p: Point<G2<C>>) -> Point<G2<C>>? {
        C.Field.twistDoubled((p.x, p.y, p.z)).map { Point(projectiveX: $0.0, y: $0.1, z: $0.2) }
    }
}

public typealias G1Point<C: PairingCurve> = Point<G1<C>>
public typealias G2Point<C: PairingCurve> = Point<G2<C>>
