/// The squarings of the final exponentiation, on Fp12's cyclotomic subgroup (where every value
/// lives after the easy part): Swift by default, C on the generated fields (bound once for all
/// curves in Pairing/KernelField.swift).
public protocol CyclotomicSquaring: TowerParameters {
    /// The cyclotomic squaring (`Fp12.grangerScottSquared`).
    static func fp12CyclotomicSquared(_ a: Fp12<Self>) -> Fp12<Self>
    /// The same in place (the C kernel reads and writes a where it lies).
    static func fp12CyclotomicSquare(_ a: inout Fp12<Self>)
    /// Karabina's compressed squaring applied `times` times (`CompressedCyclotomic.squared`).
    static func compressedCyclotomicSquare(_ x: inout CompressedCyclotomic<Self>, times: Int)
}

extension CyclotomicSquaring {
    @inlinable @inline(__always)
    public static func fp12CyclotomicSquared(_ a: Fp12<Self>) -> Fp12<Self> { a.grangerScottSquared }

    @inlinable @inline(__always)
    public static func fp12CyclotomicSquare(_ a: inout Fp12<Self>) { a = a.cyclotomicSquared }

    @inlinable @inline(__always)
    public static func compressedCyclotomicSquare(_ x: inout CompressedCyclotomic<Self>, times: Int) {
        for _ in 0..<times { x = x.squared }
    }
}
