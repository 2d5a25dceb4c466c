/// Where the Miller loop gets its lines, in the loop's order: one doubling line per digit,
/// one addition line per non-zero digit, then (BN only) the two Frobenius lines.
public protocol LineSource {
    associatedtype C: PairingCurve
    mutating func doubling() -> Line<C>
    /// The line through T and Q (or -Q), and T := T ± Q.
    mutating func addition(negated: Bool) -> Line<C>
    /// BN: the lines through T and π(Q), then T + π(Q) and -π^2(Q).
    mutating func frobeniusLines() -> (Line<C>, Line<C>)
    /// The line evaluated at P (sources whose lines have ly = 1 skip a product).
    func evaluate(_ line: Line<C>, at p: (x: Fp<C.Field>, y: Fp<C.Field>)) -> EvaluatedLine<C>
}

extension LineSource {
    @inlinable @inline(__always)
    public func evaluate(_ line: Line<C>, at p: (x: Fp<C.Field>, y: Fp<C.Field>)) -> EvaluatedLine<C> {
        EvaluatedLine(line, at: p)
    }
}

/// Lines computed from a running T in homogeneous projective coordinates (x = X/Z, y = Y/Z),
/// each line's coefficients taken from the values its doubling or addition computes anyway
/// (Costello, Lange and Naehrig 2010; Aranha et al. 2011, eq. 10-13, here scaled by 4 so that
/// nothing is halved). Every line is scaled by an Fp2 factor (the final exponentiation removes
/// it) to avoid inversions. A doubling costs 2 products and 7 squarings in Fp2 (the Jacobian
/// formulas this replaced took 6 and 6; `PairingDefinitionsTests.liveLines` checks the two
/// give the same pairings).
@frozen
public struct LiveLines<C: PairingCurve>: LineSource {
    public typealias F2 = Fp2<C.Field>
    @usableFromInline var x: F2, y: F2, z: F2
    @usableFromInline let q: (x: F2, y: F2)

    @inlinable
    public init(_ q: (x: F2, y: F2)) {
        self.q = q
        x = q.x; y = q.y; z = .one
    }

    /// The tangent at T, and T := 2T: in the field's kernel where it has one (the same
    /// operations in C, on T's words in place), else `swiftDoubling`.
    @inlinable @inline(never)
    public mutating func doubling() -> Line<C> {
        var t = (x, y, z)
        if let line = C.Field.twistDoublingLine(&t) {
            (x, y, z) = t
            return Line(ly: line.0, lx: line.1, lc: line.2)
        }
        return swiftDoubling()
    }

    /// The doubling step's Swift formulas (the reference the kernel is tested against).
    @inlinable
    package mutating func swiftDoubling() -> Line<C> {
        let a = x.squared  // X^2
        let b = y.squared  // Y^2
        let c = z.squared  // Z^2
        let d = G2<C>.timesB3(c)  // 3b'Z^2
        let e = (x + y).squared - a - b  // 2XY
        let f = (y + z).squared - b - c  // 2YZ
        let g = d + d.doubled  // 9b'Z^2
        // The tangent 2y·y' - 3x^2·x' + (3x^3 - 2y^2) scaled by Z^2, with 3x^3 - 2y^2 = y^2 - 3b'.
        let line = Line<C>(ly: f, lx: -(a + a.doubled), lc: b - d)
        let dd = d.squared
        x = e * (b - g)
        y = (b + g).squared - (dd + dd.doubled).doubled.doubled  // (B + G)^2 - 12·D^2
        z = (b * f).doubled.doubled
        return line
    }

    @inlinable
    public mutating func addition(negated: Bool) -> Line<C> {
        add(negated ? (q.x, -q.y) : q)
    }

    /// The line through T and the affine point R, and T := T + R: in the field's kernel where it
    /// has one, else `swiftAdd`.
    @inlinable @inline(never)
    mutating func add(_ r: (x: F2, y: F2)) -> Line<C> {
        var t = (x, y, z)
        if let line = C.Field.twistAdditionLine(&t, (r.x, r.y)) {
            (x, y, z) = t
            return Line(ly: line.0, lx: line.1, lc: line.2)
        }
        return swiftAdd(r)
    }

    /// The addition step's Swift formulas (the reference the kernel is tested against).
    @inlinable
    package mutating func swiftAdd(_ r: (x: F2, y: F2)) -> Line<C> {
        let theta = y - r.y * z  // Y - y_R·Z
        let lambda = x - r.x * z  // X - x_R·Z
        // The line through R with slope theta/lambda, scaled by lambda.
        let line = Line<C>(ly: lambda, lx: -theta, lc: theta * r.x - lambda * r.y)
        let cc = theta.squared
        let dd = lambda.squared
        let ee = lambda * dd
        let ff = z * cc
        let gg = x * dd
        let hh = ee + ff - gg.doubled
        x = lambda * hh
        y = theta * (gg - hh) - y * ee
        z = z * ee
        return line
    }

    @inlinable
    public mutating func frobeniusLines() -> (Line<C>, Line<C>) {
        // The loop ran over |6u+2| with u < 0: continue from -T.
        if C.uIsNegative { y = -y }
        let (q1, q2) = Self.frobeniusPoints(q)
        let first = add(q1)
        let second = add((q2.x, -q2.y))
        return (first, second)
    }

    /// π(Q) and π^2(Q), the points of BN's last two lines.
    @inlinable
    package static func frobeniusPoints(_ q: (x: F2, y: F2)) -> (q1: (x: F2, y: F2), q2: (x: F2, y: F2)) {
        let q1 = (x: q.x.conjugate * C.Field.frobeniusDeltaSquared, y: q.y.conjugate * C.Field.frobeniusDeltaCubed)
        let q2 = (x: q1.x.conjugate * C.Field.frobeniusDeltaSquared, y: q1.y.conjugate * C.Field.frobeniusDeltaCubed)
        return (q1, q2)
    }
}
