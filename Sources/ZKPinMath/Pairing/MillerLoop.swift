/// The optimal ate Miller loop (spec section 1), for one pairing or a product of several.
///
/// The accumulator T runs in Jacobian coordinates on the twist; every line is scaled by an
/// Fp2 factor to avoid inversions, which the final exponentiation removes (it kills all of
/// Fp4, so the GT bytes are those of the textbook definition).
public enum MillerLoop<C: PairingCurve> {
    public typealias F = Fp<C.Field>
    public typealias F2 = Fp2<C.Field>
    public typealias GT = Fp12<C.Field>

    /// T in Jacobian coordinates (x = X/Z^2, y = Y/Z^3).
    @usableFromInline
    struct Accumulator {
        var x: F2, y: F2, z: F2
    }

    /// A line y_P·ly + x_P·lx + lc, placed into Fp12 according to the twist.
    @inlinable @inline(__always)
    static func evaluate(ly: F2, lx: F2, lc: F2, at p: (x: F, y: F)) -> GT {
        let yTerm = ly.times(p.y)
        let xTerm = lx.times(p.x)
        switch C.twist {
        case .divisive:
            // y_P + (-λ x_P)·k + (λ x_T - y_T)·j
            return GT(Fp4(yTerm, lc), Fp4(xTerm, .zero), .zero)
        case .multiplicative:
            // (λ x_T - y_T) + y_P·j + (-λ x_P)·k^2, after scaling by k^3 = j
            return GT(Fp4(lc, yTerm), .zero, Fp4(xTerm, .zero))
        }
    }

    /// The tangent at T evaluated at P, and T := 2T.
    @usableFromInline
    static func doublingStep(_ t: inout Accumulator, _ p: (x: F, y: F)) -> GT {
        let xx = t.x.squared
        let yy = t.y.squared
        let zz = t.z.squared
        // Line scaled by 2·Y·Z^3.
        let ly = (t.y * t.z).doubled * zz
        let lx = -(xx.times(small: 3) * zz)
        let lc = xx.times(small: 3) * t.x - yy.doubled
        // dbl-2009-l
        let c = yy.squared
        let d = ((t.x + yy).squared - xx - c).doubled
        let e = xx.times(small: 3)
        let x3 = e.squared - d.doubled
        let y3 = e * (d - x3) - c.times(small: 8)
        let z3 = (t.y * t.z).doubled
        t = Accumulator(x: x3, y: y3, z: z3)
        return evaluate(ly: ly, lx: lx, lc: lc, at: p)
    }

    /// The line through T and the affine point Q evaluated at P, and T := T + Q.
    @usableFromInline
    static func additionStep(_ t: inout Accumulator, _ q: (x: F2, y: F2), _ p: (x: F, y: F)) -> GT {
        let zz = t.z.squared
        let h = q.x * zz - t.x
        let n = q.y * zz * t.z - t.y
        let d = t.z * h
        // Line scaled by Z·H: slope N / (Z·H).
        let line = evaluate(ly: d, lx: -n, lc: n * q.x - d * q.y, at: p)
        // madd-2007-bl
        let hh = h.squared
        let i = hh.doubled.doubled
        let j = h * i
        let r = n.doubled
        let v = t.x * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (t.y * j).doubled
        let z3 = (t.z + h).squared - zz - hh
        t = Accumulator(x: x3, y: y3, z: z3)
        return line
    }

    /// π(Q) on the D-type twist: (conj(x)·δ^2, conj(y)·δ^3).
    @usableFromInline
    static func frobenius(_ q: (x: F2, y: F2)) -> (x: F2, y: F2) {
        (q.x.conjugate * C.Field.frobeniusDeltaSquared, q.y.conjugate * C.Field.frobeniusDeltaCubed)
    }

    /// The product of the Miller functions of all pairs (before the final exponentiation).
    /// Pairs with a point at infinity contribute 1.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ pairs: [(G1Point<C>, G2Point<C>)]) -> GT {
        var points: [(p: (x: F, y: F), q: (x: F2, y: F2))] = []
        for (p, q) in pairs {
            guard let pa = p.affine, let qa = q.affine else { continue }
            points.append((pa, qa))
        }
        guard !points.isEmpty else { return .one }
        var accumulators = points.map { Accumulator(x: $0.q.x, y: $0.q.y, z: .one) }

        let loop = C.ateLoopCount
        var f = GT.one
        var bit = loop.bitWidth - 2
        while bit >= 0 {
            f = f.squared
            for k in points.indices { f = f * doublingStep(&accumulators[k], points[k].p) }
            if loop.bit(bit) {
                for k in points.indices { f = f * additionStep(&accumulators[k], points[k].q, points[k].p) }
            }
            bit -= 1
        }
        // u < 0 on both curves: f_{-n} equals conj(f_n) up to factors the final exponent kills.
        if C.u.isNegative {
            f = f.conjugate
            for k in accumulators.indices { accumulators[k].y = -accumulators[k].y }
        }
        if C.family == .bn {
            for k in points.indices {
                let q1 = frobenius(points[k].q)
                let q2 = frobenius(q1)
                f = f * additionStep(&accumulators[k], q1, points[k].p)
                f = f * additionStep(&accumulators[k], (q2.x, -q2.y), points[k].p)
            }
        }
        return f
    }
}
