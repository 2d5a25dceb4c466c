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
}

/// G1: the curve over Fp.
public enum G1<C: PairingCurve>: CurveGroup {
    public typealias Coordinate = Fp<C.Field>
    @inlinable public static var b: Coordinate { C.g1B }
    @inlinable public static var b3: Coordinate { C.g1B3 }
    public static var generator: Point<G1<C>> { C.g1Generator }
    public static var order: BigInt { C.order }
    public static var cofactorIsOne: Bool { C.g1CofactorIsOne }
}

/// G2: the sextic twist over Fp2.
public enum G2<C: PairingCurve>: CurveGroup {
    public typealias Coordinate = Fp2<C.Field>
    @inlinable public static var b: Coordinate { C.g2B }
    @inlinable public static var b3: Coordinate { C.g2B3 }
    public static var generator: Point<G2<C>> { C.g2Generator }
    public static var order: BigInt { C.order }
    public static var cofactorIsOne: Bool { false }
}

public typealias G1Point<C: PairingCurve> = Point<G1<C>>
public typealias G2Point<C: PairingCurve> = Point<G2<C>>
