/// A short-Weierstrass group y^2 = x^3 + b over some coordinate field (a = 0 on both curves).
public protocol CurveGroup: Sendable {
    associatedtype Coordinate: FieldElement
    /// The coefficient b.
    static var b: Coordinate { get }
    /// 3·b, used by the complete addition formulas.
    static var b3: Coordinate { get }
    /// The generator of the prime-order subgroup.
    static var generator: Point<Self> { get }
    /// The prime order r of the subgroup.
    static var order: BigInt { get }
    /// Whether every point on the curve is already in the subgroup (cofactor 1).
    static var cofactorIsOne: Bool { get }
    /// A subgroup test cheaper than r·P == O when the group has one; nil otherwise.
    static func endomorphismSubgroupCheck(_ p: Point<Self>) -> Bool?
}

/// G1: the curve over Fp.
public enum G1<C: PairingCurve>: CurveGroup {
    public typealias Coordinate = Fp<C.Field>
    @inlinable public static var b: Coordinate { C.g1B }
    @inlinable public static var b3: Coordinate { C.g1B3 }
    public static var generator: Point<G1<C>> { C.g1Generator }
    public static var order: BigInt { C.order }
    public static var cofactorIsOne: Bool { C.g1CofactorIsOne }

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
}

public typealias G1Point<C: PairingCurve> = Point<G1<C>>
public typealias G2Point<C: PairingCurve> = Point<G2<C>>
