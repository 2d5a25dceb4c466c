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
    /// γ, γ^2, γ^3, γ^4, γ^5 with γ = δ·δ̄ = δ^(p+1), in Fp: the factors of x -> x^(p^2)
    /// (`Fp12.frobeniusSquared`).
    static var frobeniusSquaredFactors: (Fp<Self>, Fp<Self>, Fp<Self>, Fp<Self>, Fp<Self>) { get }
    /// Fp12 product and square; Swift by default, C on the generated fields.
    static func fp12Product(_ a: Fp12<Self>, _ b: Fp12<Self>) -> Fp12<Self>
    static func fp12Squared(_ a: Fp12<Self>) -> Fp12<Self>
    /// The same in place (`Fp12.formSquare`, `Fp12.*=`): the C kernels read and write the value
    /// where it lies, where the forms above copy it in and out (and zero their result first),
    /// about 5% of a live BN254CX Miller loop's time.
    static func fp12Square(_ f: inout Fp12<Self>)
    static func fp12Multiply(_ a: inout Fp12<Self>, by b: Fp12<Self>)
    /// f := f times a sparse element `a + b·k` (bAtKSquared false: a D-type twist's Miller-loop
    /// line) or `a + b·k^2` (true: M-type), in place on the Miller loop's accumulator.
    static func fp12MultiplyByLine(_ f: inout Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool)
    /// The same for a line whose y_P coefficient (a.c0 on a D-type twist, a.c1 on an M-type one)
    /// lies in Fp, as a prepared line divided by ly gives (`EvaluatedLine(normalized:at:)`): the
    /// C kernel spends two base-field products fewer on it. The caller guarantees the shape.
    static func fp12MultiplyByNormalizedLine(_ f: inout Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool)
    /// The complete projective sum and doubling of points (X, Y, Z) on the curve's twist over
    /// Fp2 (`Point`'s formulas with the twist's 3b'), in C on the generated fields; nil where
    /// there is none, and `Point`'s Swift formulas apply.
    static func twistSum(
        _ p: (Fp2<Self>, Fp2<Self>, Fp2<Self>), _ q: (Fp2<Self>, Fp2<Self>, Fp2<Self>)
    ) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)?
    static func twistDoubled(_ p: (Fp2<Self>, Fp2<Self>, Fp2<Self>)) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)?
    /// `LiveLines.doubling` in C: T := 2T in place and the tangent's (ly, lx, lc); nil where
    /// there is no kernel, or where the Swift step is faster (BN254CX: the generator's
    /// `live_line_steps`).
    static func twistDoublingLine(_ t: inout (Fp2<Self>, Fp2<Self>, Fp2<Self>)) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)?
    /// `LiveLines.add` in C: T := T + R in place (R affine) and the line's (ly, lx, lc); nil
    /// where there is no kernel.
    static func twistAdditionLine(
        _ t: inout (Fp2<Self>, Fp2<Self>, Fp2<Self>), _ r: (Fp2<Self>, Fp2<Self>)
    ) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)?
}

extension TowerParameters {
    @inlinable @inline(__always)
    public static func fp12Product(_ a: Fp12<Self>, _ b: Fp12<Self>) -> Fp12<Self> { Fp12.karatsubaProduct(a, b) }

    @inlinable @inline(__always)
    public static func fp12Squared(_ a: Fp12<Self>) -> Fp12<Self> { a.chungHasanSquared }

    @inlinable @inline(__always)
    public static func twistSum(
        _ p: (Fp2<Self>, Fp2<Self>, Fp2<Self>), _ q: (Fp2<Self>, Fp2<Self>, Fp2<Self>)
    ) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? { nil }

    @inlinable @inline(__always)
    public static func twistDoubled(_ p: (Fp2<Self>, Fp2<Self>, Fp2<Self>)) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? { nil }

    @inlinable @inline(__always)
    public static func twistDoublingLine(_ t: inout (Fp2<Self>, Fp2<Self>, Fp2<Self>)) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? { nil }

    @inlinable @inline(__always)
    public static func twistAdditionLine(
        _ t: inout (Fp2<Self>, Fp2<Self>, Fp2<Self>), _ r: (Fp2<Self>, Fp2<Self>)
    ) -> (Fp2<Self>, Fp2<Self>, Fp2<Self>)? { nil }

    // The Swift defaults go through the out-of-line square, product and sparse product, so
    // that their thousands of instructions are not inlined at every call.
    @inlinable @inline(__always)
    public static func fp12Square(_ f: inout Fp12<Self>) { f = f.squared }

    @inlinable @inline(__always)
    public static func fp12Multiply(_ a: inout Fp12<Self>, by b: Fp12<Self>) { a = a * b }

    @inlinable @inline(__always)
    public static func fp12MultiplyByLine(_ f: inout Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool) {
        f = f.sparseProduct(a: a, b: b, bAtKSquared: bAtKSquared)
    }

    @inlinable @inline(__always)
    public static func fp12MultiplyByNormalizedLine(_ f: inout Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool) {
        fp12MultiplyByLine(&f, a: a, b: b, bAtKSquared: bAtKSquared)
    }

    /// f times a line as a new value (the tests'; the Miller loop multiplies in place).
    package static func fp12ProductByLine(_ f: Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool) -> Fp12<Self> {
        var product = f
        fp12MultiplyByLine(&product, a: a, b: b, bAtKSquared: bAtKSquared)
        return product
    }

    package static func fp12ProductByNormalizedLine(_ f: Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, bAtKSquared: Bool) -> Fp12<Self> {
        var product = f
        fp12MultiplyByNormalizedLine(&product, a: a, b: b, bAtKSquared: bAtKSquared)
        return product
    }
}

extension TowerParameters {
    /// Computes δ = ξ^((p-1)/6) (for the concrete parameter types' stored constants).
    public static func computeFrobeniusDelta() -> Fp2<Self> {
        Fp2<Self>(.one, .one).power((modulusBig - BigInt(1)) / BigInt(6))
    }

    /// Computes γ^1...γ^5, γ = δ·δ̄ (for the concrete parameter types' stored constants).
    public static func computeFrobeniusSquaredFactors() -> (Fp<Self>, Fp<Self>, Fp<Self>, Fp<Self>, Fp<Self>) {
        let norm = frobeniusDelta * frobeniusDelta.conjugate
        precondition(norm.c1.isZero, "δ·δ̄ lies in Fp")
        let g = norm.c0, g2 = g * g, g3 = g2 * g
        return (g, g2, g3, g3 * g, g3 * g2)
    }
}
