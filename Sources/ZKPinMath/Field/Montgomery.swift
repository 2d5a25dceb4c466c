/// The constants of a prime field Fp in Montgomery form (R = 2^(64·limbs)).
///
/// `modulus` and `negativeInverse` are literals (computed properties) so that, once the generic
/// arithmetic is specialised, they are immediate operands; the rest are derived once with GMP.
public protocol PrimeFieldParameters: Sendable {
    associatedtype Limbs: LimbArray
    /// p, little-endian limbs.
    static var modulus: Limbs { get }
    /// -p^-1 mod 2^64.
    static var negativeInverse: UInt64 { get }
    /// p as a big integer (hex in the spec).
    static var modulusBig: BigInt { get }
    /// R^2 mod p, for conversion into Montgomery form.
    static var rSquared: Limbs { get }
    /// R mod p, the Montgomery form of 1.
    static var montgomeryOne: Limbs { get }
    /// Bytes of an encoded element (PFS).
    static var byteCount: Int { get }
    /// p - 2 (Fermat inversion), little-endian limbs.
    static var inverseExponent: [UInt64] { get }
    /// (p + 1) / 4 (square roots; p = 3 mod 4), little-endian limbs.
    static var squareRootExponent: [UInt64] { get }
    /// a·b·R^-1 mod p. The default is the straight-line Swift product of `Limbs`; the two
    /// curves' fields use assembly on x86-64 (see CFieldArithmetic).
    static func montgomeryProduct(_ a: Limbs, _ b: Limbs) -> Limbs
    /// (a + b) mod p and (a - b) mod p for a, b < p; likewise overridden by the two fields.
    static func modularSum(_ a: Limbs, _ b: Limbs) -> Limbs
    static func modularDifference(_ a: Limbs, _ b: Limbs) -> Limbs
    /// a·b + c·d and a·b - c·d, Montgomery form; the two fields reduce the pair once.
    static func sumOfProducts(_ a: Limbs, _ b: Limbs, _ c: Limbs, _ d: Limbs) -> Limbs
    static func differenceOfProducts(_ a: Limbs, _ b: Limbs, _ c: Limbs, _ d: Limbs) -> Limbs
    /// (a0 + a1·i)(b0 + b1·i) in Fp[i]/(i^2 + 1), Montgomery form; the two fields reduce lazily.
    /// Whole elements in and out: the kernels read and write an Fp2's words where they are.
    static func fp2Product(_ a: Fp2<Self>, _ b: Fp2<Self>) -> Fp2<Self>
    /// Fp4 product and square (`Fp4.karatsubaProduct`, `karatsubaSquared`; C on the two fields).
    static func fp4Product(_ a: Fp4<Self>, _ b: Fp4<Self>) -> Fp4<Self>
    static func fp4Squared(_ a: Fp4<Self>) -> Fp4<Self>
}

extension PrimeFieldParameters {
    @inlinable @inline(__always)
    public static func montgomeryProduct(_ a: Limbs, _ b: Limbs) -> Limbs {
        Limbs.montgomeryProduct(a, b, modulus: modulus, negativeInverse: negativeInverse)
    }

    @inlinable @inline(__always)
    public static func modularSum(_ a: Limbs, _ b: Limbs) -> Limbs { Limbs.modularSum(a, b, modulus: modulus) }

    @inlinable @inline(__always)
    public static func modularDifference(_ a: Limbs, _ b: Limbs) -> Limbs { Limbs.modularDifference(a, b, modulus: modulus) }

    @inlinable @inline(__always)
    public static func sumOfProducts(_ a: Limbs, _ b: Limbs, _ c: Limbs, _ d: Limbs) -> Limbs {
        modularSum(montgomeryProduct(a, b), montgomeryProduct(c, d))
    }

    @inlinable @inline(__always)
    public static func differenceOfProducts(_ a: Limbs, _ b: Limbs, _ c: Limbs, _ d: Limbs) -> Limbs {
        modularDifference(montgomeryProduct(a, b), montgomeryProduct(c, d))
    }

    @inlinable @inline(__always)
    public static func fp4Product(_ a: Fp4<Self>, _ b: Fp4<Self>) -> Fp4<Self> { Fp4.karatsubaProduct(a, b) }

    @inlinable @inline(__always)
    public static func fp4Squared(_ a: Fp4<Self>) -> Fp4<Self> { a.karatsubaSquared }

    /// Karatsuba: three products.
    @inlinable @inline(__always)
    public static func fp2Product(_ a: Fp2<Self>, _ b: Fp2<Self>) -> Fp2<Self> {
        let (a0, a1, b0, b1) = (a.c0.montgomery, a.c1.montgomery, b.c0.montgomery, b.c1.montgomery)
        let t0 = montgomeryProduct(a0, b0), t1 = montgomeryProduct(a1, b1)
        let cross = montgomeryProduct(modularSum(a0, a1), modularSum(b0, b1))
        return Fp2(
            Fp(montgomery: modularDifference(t0, t1)), Fp(montgomery: modularDifference(modularDifference(cross, t0), t1)))
    }
}

extension LimbArithmetic {
    /// Montgomery product a·b·R^-1 mod p (CIOS) for any limb count, branchless final subtraction
    /// (the reference the straight-line 4- and 6-limb products are tested against).
    @inlinable @inline(__always)
    static func montgomeryMultiplyLoop<L: LimbArray>(_ a: L, _ b: L, modulus p: L, negativeInverse: UInt64) -> L {
        let n = L.count
        var t = L()
        var top: UInt64 = 0
        for i in 0..<n {
            // t += a · b[i]
            var carry: UInt64 = 0
            let bi = b[i]
            for j in 0..<n {
                let (high, low) = a[j].multipliedFullWidth(by: bi)
                let (s1, c1) = low.addingReportingOverflow(t[j])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                t[j] = s2
                carry = high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
            }
            let (topSum, topCarry) = top.addingReportingOverflow(carry)
            // t = (t + m·p) / 2^64 with m chosen so the low limb vanishes.
            let m = t[0] &* negativeInverse
            let (high0, low0) = m.multipliedFullWidth(by: p[0])
            let (_, c0) = low0.addingReportingOverflow(t[0])
            carry = high0 &+ (c0 ? 1 : 0)
            for j in 1..<n {
                let (high, low) = m.multipliedFullWidth(by: p[j])
                let (s1, c1) = low.addingReportingOverflow(t[j])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                t[j - 1] = s2
                carry = high &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
            }
            let (last, lastCarry) = topSum.addingReportingOverflow(carry)
            t[n - 1] = last
            top = (topCarry ? 1 : 0) &+ (lastCarry ? 1 : 0)
        }
        return reducedOnce(t, modulus: p, overflow: top)
    }
}
