/// A point in Jacobian coordinates (x = X/Z^2, y = Y/Z^3; infinity has Z = 0), for scalar
/// multiplications by public scalars only: its doubling costs 2 products and 5 squarings
/// against 9 products for the complete projective one, but its addition branches on the
/// inputs (P = Q, P = -Q, infinity), so it must never see a secret.
@frozen
public struct JacobianPoint<G: CurveGroup>: Sendable {
    public typealias F = G.Coordinate
    public var x: F, y: F, z: F

    @inlinable
    public init(x: F, y: F, z: F) { self.x = x; self.y = y; self.z = z }

    /// From homogeneous projective (X : Y : Z) = (X·Z : Y·Z^2 : Z) in Jacobian coordinates.
    @inlinable
    public init(_ p: Point<G>) {
        if p.z == .one {
            self.init(x: p.x, y: p.y, z: .one)
        } else {
            let zz = p.z.squared
            self.init(x: p.x * p.z, y: p.y * zz, z: p.z)
        }
    }

    @inlinable public static var infinity: JacobianPoint { JacobianPoint(x: .one, y: .one, z: .zero) }
    @inlinable public var isInfinity: Bool { z.isZero }

    /// (X·Z : Y : Z^3) in homogeneous projective coordinates (infinity stays infinity).
    @inlinable
    public var projective: Point<G> {
        if isInfinity { return .infinity }
        return Point(projectiveX: x * z, y: y, z: z.squared * z)
    }

    @inlinable
    public static prefix func - (p: JacobianPoint) -> JacobianPoint { JacobianPoint(x: p.x, y: -p.y, z: p.z) }

    /// dbl-2009-l (a = 0). A point of order 2 has Y = 0 and doubles to Z = 0, infinity.
    @inlinable
    public var doubled: JacobianPoint {
        let a = x.squared, b = y.squared
        let c = b.squared
        let d = ((x + b).squared - a - c).doubled
        let e = a.doubled + a
        let f = e.squared
        let x3 = f - d.doubled
        let y3 = e * (d - x3) - c.doubled.doubled.doubled
        let z3 = (y * z).doubled
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// add-2007-bl, with the cases its formula does not cover taken apart.
    @inlinable
    public static func + (p: JacobianPoint, q: JacobianPoint) -> JacobianPoint {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        let z1z1 = p.z.squared, z2z2 = q.z.squared
        let u1 = p.x * z2z2, u2 = q.x * z1z1
        let s1 = p.y * q.z * z2z2, s2 = q.y * p.z * z1z1
        let h = u2 - u1
        let r = (s2 - s1).doubled
        if h.isZero { return r.isZero ? p.doubled : .infinity }
        let i = h.doubled.squared
        let j = h * i
        let v = u1 * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (s1 * j).doubled
        let z3 = ((p.z + q.z).squared - z1z1 - z2z2) * h
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// madd-2007-bl: q affine (Z = 1).
    @inlinable
    public func adding(affine q: (x: F, y: F)) -> JacobianPoint {
        if isInfinity { return JacobianPoint(x: q.x, y: q.y, z: .one) }
        let z1z1 = z.squared
        let u2 = q.x * z1z1, s2 = q.y * z * z1z1
        let h = u2 - x
        let r = (s2 - y).doubled
        if h.isZero { return r.isZero ? doubled : .infinity }
        let hh = h.squared
        let i = hh.doubled.doubled
        let j = h * i
        let v = x * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (y * j).doubled
        let z3 = (z + h).squared - z1z1 - hh
        return JacobianPoint(x: x3, y: y3, z: z3)
    }
}
