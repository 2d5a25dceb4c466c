/// A Miller-loop line on the twist, ly·y + lx·x + lc, before it is evaluated at a G1 point P.
/// Lines are only ever known up to a factor in a proper subfield, which the final
/// exponentiation removes, so the coefficients need no normalisation.
@frozen
public struct Line<C: PairingCurve>: Sendable {
    public var ly: Fp2<C.Field>
    public var lx: Fp2<C.Field>
    public var lc: Fp2<C.Field>

    @inlinable @inline(__always)
    public init(ly: Fp2<C.Field>, lx: Fp2<C.Field>, lc: Fp2<C.Field>) { self.ly = ly; self.lx = lx; self.lc = lc }
}

/// The line evaluated at P, as the two non-zero parts of a sparse Fp12 element: `a + b·k`
/// on a D-type twist, `a + b·k^2` on an M-type twist (spec section 1).
@frozen
public struct EvaluatedLine<C: PairingCurve>: Sendable {
    public var a: Fp4<C.Field>
    public var b: Fp2<C.Field>
    /// Whether a's y_P coefficient is y_P itself, in Fp (a line with ly = 1): the product by it
    /// then takes the kernel that spends two base-field products fewer.
    public var yInBaseField: Bool

    @inlinable @inline(__always)
    public init(_ line: Line<C>, at p: (x: Fp<C.Field>, y: Fp<C.Field>)) {
        let yTerm = line.ly.times(p.y)
        b = line.lx.times(p.x)
        yInBaseField = false
        switch C.twist {
        case .divisive:
            // y_P + (-λ x_P)·k + (λ x_T - y_T)·j
            a = Fp4(yTerm, line.lc)
        case .multiplicative:
            // (λ x_T - y_T) + y_P·j + (-λ x_P)·k^2, after scaling by k^3 = j
            a = Fp4(line.lc, yTerm)
        }
    }

    /// The same for a line with ly = 1: y_P enters as it is.
    @inlinable @inline(__always)
    public init(normalized line: Line<C>, at p: (x: Fp<C.Field>, y: Fp<C.Field>)) {
        let yTerm = Fp2(p.y, .zero)
        b = line.lx.times(p.x)
        yInBaseField = true
        switch C.twist {
        case .divisive: a = Fp4(yTerm, line.lc)
        case .multiplicative: a = Fp4(line.lc, yTerm)
        }
    }

    /// The dense Fp12 value (tests compare the sparse product against it).
    @inlinable
    package var dense: Fp12<C.Field> {
        switch C.twist {
        case .divisive: return Fp12(a, Fp4(b, .zero), .zero)
        case .multiplicative: return Fp12(a, .zero, Fp4(b, .zero))
        }
    }
}

extension Fp12 {
    /// self := self · line, in place (the Miller loop's accumulator; `P.fp12MultiplyByLine`, C on
    /// the generated fields).
    @inlinable @inline(__always)
    public mutating func multiply<C: PairingCurve>(by line: EvaluatedLine<C>) where C.Field == P {
        let bAtKSquared = C.twist == .multiplicative
        if line.yInBaseField {
            P.fp12MultiplyByNormalizedLine(&self, a: line.a, b: line.b, bAtKSquared: bAtKSquared)
        } else {
            P.fp12MultiplyByLine(&self, a: line.a, b: line.b, bAtKSquared: bAtKSquared)
        }
    }

    /// self · line as a new value (the line's zero coefficients skipped: 13 Fp2 products
    /// instead of 18).
    @inlinable
    public func multiplied<C: PairingCurve>(by line: EvaluatedLine<C>) -> Fp12 where C.Field == P {
        var product = self
        product.multiply(by: line)
        return product
    }
}
