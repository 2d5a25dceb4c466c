/// Fp12 = Fp4[k] / (k^3 - j): `c0 + c1·k + c2·k^2`, the pairing's target field.
///
/// The byte order (spec section 2) is c0, c1, c2, each Fp4 as `a.a ‖ a.b ‖ b.a ‖ b.b`.
@frozen
public struct Fp12<P: TowerParameters>: Sendable, Hashable, CustomStringConvertible {
    public var c0: Fp4<P>
    public var c1: Fp4<P>
    public var c2: Fp4<P>

    @inlinable @inline(__always)
    public init(_ c0: Fp4<P>, _ c1: Fp4<P>, _ c2: Fp4<P>) { self.c0 = c0; self.c1 = c1; self.c2 = c2 }

    @inlinable public static var zero: Fp12 { Fp12(.zero, .zero, .zero) }
    @inlinable public static var one: Fp12 { Fp12(.one, .zero, .zero) }

    /// 12 · PFS bytes.
    public var bytes: [UInt8] { c0.bytes + c1.bytes + c2.bytes }

    /// Decodes the 12 · PFS bytes of `bytes`; nil on length or range errors.
    public init?(bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        let size = P.byteCount
        guard array.count == 12 * size else { return nil }
        var parts = [Fp2<P>]()
        for index in 0..<6 {
            guard let element = Fp2<P>(bytes: array[(2 * index * size)..<((2 * index + 2) * size)]) else { return nil }
            parts.append(element)
        }
        self.init(Fp4(parts[0], parts[1]), Fp4(parts[2], parts[3]), Fp4(parts[4], parts[5]))
    }

    public var description: String { bytes.hexString }

    @inlinable public var isOne: Bool { self == .one }

    @inlinable
    public static func + (a: Fp12, b: Fp12) -> Fp12 { Fp12(a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2) }

    @inlinable
    public static func - (a: Fp12, b: Fp12) -> Fp12 { Fp12(a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2) }

    /// Karatsuba for a cubic extension with k^3 = j: six Fp4 products. Never inlined: the
    /// body is thousands of instructions, and inlining it everywhere makes the optimiser crawl.
    @inlinable @inline(never)
    public static func * (a: Fp12, b: Fp12) -> Fp12 { P.fp12Product(a, b) }

    /// The Karatsuba product in Swift (the reference, and the product of other fields).
    @inlinable
    package static func karatsubaProduct(_ a: Fp12, _ b: Fp12) -> Fp12 {
        let v0 = a.c0 * b.c0
        let v1 = a.c1 * b.c1
        let v2 = a.c2 * b.c2
        let c0 = v0 + ((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).timesJ
        let c1 = (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.timesJ
        let c2 = (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1
        return Fp12(c0, c1, c2)
    }

    /// In place: on the generated fields the C product reads and writes a where it lies.
    @inlinable @inline(__always)
    public static func *= (a: inout Fp12, b: Fp12) { P.fp12Multiply(&a, by: b) }

    /// The square: Chung-Hasan SQR2 in Swift (`chungHasanSquared`), complex squaring over Fp6
    /// in the C kernels (field_arithmetic.h).
    @inlinable
    public var squared: Fp12 { square() }

    @inlinable @inline(never)
    func square() -> Fp12 { P.fp12Squared(self) }

    /// self := self^2 in place (the Miller loop's accumulator).
    @inlinable @inline(__always)
    public mutating func formSquare() { P.fp12Square(&self) }

    /// SQR2 in Swift (the reference, and the squaring of other fields).
    @inlinable
    package var chungHasanSquared: Fp12 {
        let s0 = c0.squared
        let s1 = (c0 * c1).doubled
        let s2 = (c0 - c1 + c2).squared
        let s3 = (c1 * c2).doubled
        let s4 = c2.squared
        return Fp12(s0 + s3.timesJ, s1 + s4.timesJ, s1 + s2 + s3 - s0 - s4)
    }

    /// The inverse (zero maps to zero).
    public var inverse: Fp12 { invert() }

    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    func invert() -> Fp12 {
        // For x = c0 + c1·k + c2·k^2 with k^3 = j: x · (t0 + t1·k + t2·k^2) = norm in Fp4.
        let t0 = c0.squared - (c1 * c2).timesJ
        let t1 = c2.squared.timesJ - c0 * c1
        let t2 = c1.squared - c0 * c2
        let norm = c0 * t0 + (c2 * t1 + c1 * t2).timesJ
        let normInverse = norm.inverse
        return Fp12(t0 * normInverse, t1 * normInverse, t2 * normInverse)
    }

    /// x^(p^6): k -> -k and j -> -j. On the cyclotomic subgroup this is the inverse.
    @inlinable
    public var conjugate: Fp12 { Fp12(c0.conjugate, -c1.conjugate, c2.conjugate) }

    /// The conjugate when mask is all ones, self when it is zero, without a branch: the three Fp2
    /// coefficients the conjugate negates (c0.c1, c1.c0, c2.c1), each selected.
    @inlinable
    public func conjugated(if mask: UInt64) -> Fp12 {
        Fp12(
            Fp4(c0.c0, .select(mask, -c0.c1, c0.c1)),
            Fp4(.select(mask, -c1.c0, c1.c0), c1.c1),
            Fp4(c2.c0, .select(mask, -c2.c1, c2.c1)))
    }

    /// x^p.
    @inlinable
    public var frobenius: Fp12 {
        func frobenius4(_ x: Fp4<P>) -> Fp4<P> {
            Fp4(x.c0.conjugate, x.c1.conjugate * P.frobeniusDeltaCubed)
        }
        return Fp12(
            frobenius4(c0),
            frobenius4(c1).times(P.frobeniusDelta),
            frobenius4(c2).times(P.frobeniusDeltaSquared))
    }

    /// x^(p^2), the Frobenius applied twice: its conjugations cancel, and what is left is each
    /// Fp2 coefficient times a power of γ = δ·δ̄ in Fp (k^(p^2) = γ·k, j^(p^2) = γ^3·j): ten base
    /// products instead of fourteen Fp2 products.
    @inlinable
    public var frobeniusSquared: Fp12 {
        let g = P.frobeniusSquaredFactors
        return Fp12(
            Fp4(c0.c0, c0.c1.times(g.2)),
            Fp4(c1.c0.times(g.0), c1.c1.times(g.3)),
            Fp4(c2.c0.times(g.1), c2.c1.times(g.4)))
    }

    /// x^e for a public exponent given as little-endian limbs.
    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    public func power(limbs exponent: [UInt64]) -> Fp12 {
        var result = Fp12.one
        var started = false
        for limb in exponent.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                if started { result = result.squared }
                if (limb >> UInt64(bit)) & 1 == 1 {
                    result = started ? result * self : self
                    started = true
                }
            }
        }
        return result
    }

    /// x^e for a public non-negative exponent.
    public func power(_ exponent: BigInt) -> Fp12 {
        precondition(!exponent.isNegative)
        return power(limbs: exponent.limbs(count: max(1, (exponent.bitWidth + 63) / 64)))
    }

    @inlinable
    public static func == (a: Fp12, b: Fp12) -> Bool { a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2 }

    @inlinable
    public static func select(_ mask: UInt64, _ a: Fp12, _ b: Fp12) -> Fp12 {
        Fp12(Fp4.select(mask, a.c0, b.c0), Fp4.select(mask, a.c1, b.c1), Fp4.select(mask, a.c2, b.c2))
    }
}
