/// Fp4 = Fp2[j] / (j^2 - ξ), ξ = 1 + i: `c0 + c1·j`.
@frozen
public struct Fp4<P: PrimeFieldParameters>: Sendable, Hashable {
    public var c0: Fp2<P>
    public var c1: Fp2<P>

    @inlinable @inline(__always)
    public init(_ c0: Fp2<P>, _ c1: Fp2<P>) { self.c0 = c0; self.c1 = c1 }

    @inlinable public static var zero: Fp4 { Fp4(.zero, .zero) }
    @inlinable public static var one: Fp4 { Fp4(.one, .zero) }

    /// `c0.c0 ‖ c0.c1 ‖ c1.c0 ‖ c1.c1`.
    public var bytes: [UInt8] { c0.bytes + c1.bytes }

    @inlinable @inline(__always)
    public static func + (a: Fp4, b: Fp4) -> Fp4 { Fp4(a.c0 + b.c0, a.c1 + b.c1) }

    @inlinable @inline(__always)
    public static func - (a: Fp4, b: Fp4) -> Fp4 { Fp4(a.c0 - b.c0, a.c1 - b.c1) }

    @inlinable @inline(__always)
    public static prefix func - (a: Fp4) -> Fp4 { Fp4(-a.c0, -a.c1) }

    /// `P.fp4Product`: Karatsuba over Fp2 (in C on the assembly fields).
    @inlinable @inline(never)
    public static func * (a: Fp4, b: Fp4) -> Fp4 { P.fp4Product(a, b) }

    /// Karatsuba over Fp2: three Fp2 products (the reference, and the product of other fields).
    @inlinable
    package static func karatsubaProduct(_ a: Fp4, _ b: Fp4) -> Fp4 {
        let t0 = a.c0 * b.c0
        let t1 = a.c1 * b.c1
        let cross = (a.c0 + a.c1) * (b.c0 + b.c1)
        return Fp4(t0 + t1.timesXi, cross - t0 - t1)
    }

    @inlinable
    public var squared: Fp4 { square() }

    @inlinable @inline(never)
    func square() -> Fp4 { P.fp4Squared(self) }

    /// (c0 + c1)(c0 + ξc1) - (1 + ξ)c0c1 + 2c0c1·j: two Fp2 products (the reference).
    @inlinable
    package var karatsubaSquared: Fp4 {
        let product = c0 * c1
        let sum = (c0 + c1) * (c0 + c1.timesXi)
        return Fp4(sum - product - product.timesXi, product.doubled)
    }

    @inlinable public var doubled: Fp4 { Fp4(c0.doubled, c1.doubled) }
    @inlinable public var isZero: Bool { c0.isZero && c1.isZero }

    /// Multiplication by j: (c0 + c1·j)·j = ξ·c1 + c0·j.
    @inlinable @inline(__always)
    public var timesJ: Fp4 { Fp4(c1.timesXi, c0) }

    /// c0 - c1·j, the p^2-Frobenius of Fp4.
    @inlinable public var conjugate: Fp4 { Fp4(c0, -c1) }

    @inlinable @inline(__always)
    public func times(_ k: Fp2<P>) -> Fp4 { Fp4(c0 * k, c1 * k) }

    /// (c0 - c1·j) / (c0^2 - ξ·c1^2).
    public var inverse: Fp4 {
        let normInverse = (c0.squared - c1.squared.timesXi).inverse
        return Fp4(c0 * normInverse, -(c1 * normInverse))
    }

    @inlinable
    public static func == (a: Fp4, b: Fp4) -> Bool { a.c0 == b.c0 && a.c1 == b.c1 }

    @inlinable
    public static func select(_ mask: UInt64, _ a: Fp4, _ b: Fp4) -> Fp4 {
        Fp4(Fp2.select(mask, a.c0, b.c0), Fp2.select(mask, a.c1, b.c1))
    }
}
