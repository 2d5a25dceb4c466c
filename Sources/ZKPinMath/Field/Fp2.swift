/// Fp2 = Fp[i] / (i^2 + 1): `c0 + c1·i`.
@frozen
public struct Fp2<P: PrimeFieldParameters>: FieldElement, Hashable, CustomStringConvertible {
    public var c0: Fp<P>
    public var c1: Fp<P>

    @inlinable @inline(__always)
    public init(_ c0: Fp<P>, _ c1: Fp<P>) { self.c0 = c0; self.c1 = c1 }

    @inlinable public static var zero: Fp2 { Fp2(.zero, .zero) }
    @inlinable public static var one: Fp2 { Fp2(.one, .zero) }

    /// The element of the base field.
    @inlinable public init(_ c0: Fp<P>) { self.init(c0, .zero) }

    /// Decodes `c0 ‖ c1` (each `P.byteCount` bytes big-endian); nil on length or range errors.
    public init?(bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        guard array.count == 2 * P.byteCount,
            let a = Fp<P>(bytes: array[0..<P.byteCount]),
            let b = Fp<P>(bytes: array[P.byteCount...])
        else { return nil }
        self.init(a, b)
    }

    /// `c0 ‖ c1`.
    public var bytes: [UInt8] { c0.bytes + c1.bytes }
    public var description: String { "(\(c0), \(c1))" }

    @inlinable @inline(__always)
    public static func + (a: Fp2, b: Fp2) -> Fp2 { Fp2(a.c0 + b.c0, a.c1 + b.c1) }

    @inlinable @inline(__always)
    public static func - (a: Fp2, b: Fp2) -> Fp2 { Fp2(a.c0 - b.c0, a.c1 - b.c1) }

    @inlinable @inline(__always)
    public static prefix func - (a: Fp2) -> Fp2 { Fp2(-a.c0, -a.c1) }

    /// `P.fp2Product`: Karatsuba's three base-field products in Swift; on the assembly fields
    /// two interleaved sums of products (BN254CX) or Karatsuba with two reductions of
    /// double-width products (BLS12-381). Kept out of line, like the larger tower
    /// operations: fully inlined towers grow into functions larger than the instruction cache.
    @inlinable @inline(never)
    public static func * (a: Fp2, b: Fp2) -> Fp2 { P.fp2Product(a, b) }

    /// (a0 + a1)(a0 - a1) + 2·a0·a1·i: two base-field products.
    @inlinable
    public var squared: Fp2 { square() }

    @inlinable @inline(never)
    func square() -> Fp2 {
        let product = c0 * c1
        return Fp2((c0 + c1) * (c0 - c1), product.doubled)
    }

    @inlinable public var doubled: Fp2 { Fp2(c0.doubled, c1.doubled) }
    @inlinable public var isZero: Bool { c0.isZero && c1.isZero }

    /// The conjugate c0 - c1·i, which is also the Frobenius map x -> x^p.
    @inlinable public var conjugate: Fp2 { Fp2(c0, -c1) }

    /// Multiplication by the tower's non-residue ξ = 1 + i.
    @inlinable @inline(__always)
    package var timesXi: Fp2 { Fp2(c0 - c1, c0 + c1) }

    /// Multiplication by a base-field element.
    @inlinable @inline(__always)
    public func times(_ k: Fp<P>) -> Fp2 { Fp2(c0 * k, c1 * k) }

    @inlinable @inline(__always)
    public func times(small: UInt64) -> Fp2 { Fp2(c0.times(small: small), c1.times(small: small)) }

    /// conj / norm, with norm = c0^2 + c1^2 in Fp.
    public var inverse: Fp2 { invert() }

    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    func invert() -> Fp2 { conjugate(times: (c0.squared + c1.squared).inverse) }

    /// conj / norm with the norm inverted by `Fp.constantTimeInverse`.
    public var constantTimeInverse: Fp2 { invertInConstantTime() }

    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    func invertInConstantTime() -> Fp2 { conjugate(times: (c0.squared + c1.squared).constantTimeInverse) }

    /// conj · k: with k the norm's inverse, the inverse.
    @inline(__always)
    func conjugate(times k: Fp<P>) -> Fp2 { Fp2(c0 * k, -(c1 * k)) }

    @inlinable
    public static func == (a: Fp2, b: Fp2) -> Bool { a.c0 == b.c0 && a.c1 == b.c1 }

    @inlinable
    public static func select(_ mask: UInt64, _ a: Fp2, _ b: Fp2) -> Fp2 {
        Fp2(Fp.select(mask, a.c0, b.c0), Fp.select(mask, a.c1, b.c1))
    }
}
