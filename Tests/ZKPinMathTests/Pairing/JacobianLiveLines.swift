import ZKPinMath

// The Miller loop's live lines as they were computed before issue 27 (Jacobian coordinates,
// dbl-2009-l and madd-2007-bl, the line from separate products): the reference that
// `PairingDefinitionsTests.liveLines` checks the homogeneous `LiveLines` against.

/// Lines computed from a running T in Jacobian coordinates (x = X/Z^2, y = Y/Z^3). Every line
/// is scaled by an Fp2 factor to avoid inversions.
struct JacobianLiveLines<C: PairingCurve>: LineSource {
    typealias F2 = Fp2<C.Field>
    var x: F2, y: F2, z: F2
    let q: (x: F2, y: F2)

    init(_ q: (x: F2, y: F2)) {
        self.q = q
        x = q.x; y = q.y; z = .one
    }

    /// The tangent at T, and T := 2T (dbl-2009-l).
    mutating func doubling() -> Line<C> {
        let xx = x.squared
        let yy = y.squared
        let zz = z.squared
        let xx3 = xx + xx.doubled
        let yz2 = (y * z).doubled
        // Line scaled by 2·Y·Z^3.
        let line = Line<C>(ly: yz2 * zz, lx: -(xx3 * zz), lc: xx3 * x - yy.doubled)
        let c = yy.squared
        let d = ((x + yy).squared - xx - c).doubled
        let x3 = xx3.squared - d.doubled
        let c8 = c.doubled.doubled.doubled
        y = xx3 * (d - x3) - c8
        x = x3
        z = yz2
        return line
    }

    mutating func addition(negated: Bool) -> Line<C> {
        add(negated ? (q.x, -q.y) : q)
    }

    /// The line through T and the affine point R, and T := T + R (madd-2007-bl).
    mutating func add(_ r: (x: F2, y: F2)) -> Line<C> {
        let zz = z.squared
        let h = r.x * zz - x
        let n = r.y * zz * z - y
        let d = z * h
        // Line scaled by Z·H: slope N / (Z·H).
        let line = Line<C>(ly: d, lx: -n, lc: n * r.x - d * r.y)
        let hh = h.squared
        let i = hh.doubled.doubled
        let j = h * i
        let rr = n.doubled
        let v = x * i
        let x3 = rr.squared - j - v.doubled
        let y3 = rr * (v - x3) - (y * j).doubled
        let z3 = (z + h).squared - zz - hh
        x = x3; y = y3; z = z3
        return line
    }

    mutating func frobeniusLines() -> (Line<C>, Line<C>) {
        // The loop ran over |6u+2| with u < 0: continue from -T.
        if C.uIsNegative { y = -y }
        // The points are the same for both (only the coordinates of T differ).
        let (q1, q2) = LiveLines<C>.frobeniusPoints(q)
        let first = add(q1)
        let second = add((q2.x, -q2.y))
        return (first, second)
    }
}
