/// The Frobenius constants of the tower Fp12 = Fp4[k]/(k^3 - j), Fp4 = Fp2[j]/(j^2 - ξ).
///
/// With δ = ξ^((p-1)/6): k^p = δ·k, (k^2)^p = δ^2·k^2 and j^p = δ^3·j.
public protocol TowerParameters: PrimeFieldParameters {
    /// δ = ξ^((p-1)/6).
    static var frobeniusDelta: Fp2<Self> { get }
    /// δ^2.
    static var frobeniusDeltaSquared: Fp2<Self> { get }
    /// δ^3 = ξ^((p-1)/2).
    static var frobeniusDeltaCubed: Fp2<Self> { get }
    /// The cyclotomic squaring (`Fp12.grangerScottSquared`; C on the two fields).
    static func fp12CyclotomicSquared(_ a: Fp12<Self>) -> Fp12<Self>
    /// Karabina's compressed squaring applied `times` times (`CompressedCyclotomic.squared`;
    /// C on the two fields).
    static func compressedCyclotomicSquare(_ x: inout CompressedCyclotomic<Self>, times: Int)
    /// Fp12 product, square, and product by an evaluated Miller-loop line `a + b·k` (D-type
    /// twist) or `a + b·k^2` (M-type); Swift by default, C on the two fields.
    static func fp12Product(_ a: Fp12<Self>, _ b: Fp12<Self>) -> Fp12<Self>
    static func fp12Squared(_ a: Fp12<Self>) -> Fp12<Self>
    static func fp12ProductByLine(_ f: Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, twist: TwistType) -> Fp12<Self>
}

extension TowerParameters {
    @inlinable @inline(__always)
    public static func fp12CyclotomicSquared(_ a: Fp12<Self>) -> Fp12<Self> { a.grangerScottSquared }

    @inlinable @inline(__always)
    public static func compressedCyclotomicSquare(_ x: inout CompressedCyclotomic<Self>, times: Int) {
        for _ in 0..<times { x = x.squared }
    }

    @inlinable @inline(__always)
    public static func fp12Product(_ a: Fp12<Self>, _ b: Fp12<Self>) -> Fp12<Self> { Fp12.karatsubaProduct(a, b) }

    @inlinable @inline(__always)
    public static func fp12Squared(_ a: Fp12<Self>) -> Fp12<Self> { a.chungHasanSquared }

    @inlinable @inline(__always)
    public static func fp12ProductByLine(_ f: Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, twist: TwistType) -> Fp12<Self> {
        f.sparseProduct(a: a, b: b, twist: twist)
    }
}

extension TowerParameters {
    /// Computes δ = ξ^((p-1)/6) (for the concrete parameter types' stored constants).
    public static func computeFrobeniusDelta() -> Fp2<Self> {
        Fp2<Self>(.one, .one).power((modulusBig - BigInt(1)) / BigInt(6))
    }
}
