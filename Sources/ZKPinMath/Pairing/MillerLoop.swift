/// The optimal ate Miller loop (spec section 1), for one pairing or a product of two.
///
/// The loop walks the NAF digits of the loop count; the lines come from a `LineSource`: either
/// computed on the fly from a running point T (`LiveLines`) or read from lines precomputed for a
/// fixed G2 point (`G2Prepared`, the server's Q and SS). Lines multiply f as sparse elements. No
/// step allocates on the heap.
public enum MillerLoop<C: PairingCurve> {
    public typealias F = Fp<C.Field>
    public typealias F2 = Fp2<C.Field>
    public typealias GT = Fp12<C.Field>
    public typealias AffineG1 = (x: F, y: F)

    /// P in affine coordinates; decoded points already have Z = 1 and skip the inversion
    /// (pairing inputs are public, so the branch reveals nothing).
    @inlinable @inline(__always)
    static func affine(_ p: G1Point<C>) -> AffineG1? {
        if p.z == .one { return (p.x, p.y) }
        return p.affine
    }

    /// f_Q(P) for one pair; 1 when either point is at infinity.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p: G1Point<C>, _ q: G2Point<C>) -> GT {
        guard let pa = affine(p), let qa = q.affine else { return .one }
        var lines = LiveLines<C>(qa)
        return run(pa, &lines)
    }

    /// f_Q(P) for a prepared Q.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p: G1Point<C>, _ q: G2Prepared<C>) -> GT {
        guard let pa = affine(p), !q.isInfinity else { return .one }
        var lines = PreparedLines(q)
        return run(pa, &lines)
    }

    /// f_Q1(P1)·f_Q2(P2) with the squarings of f shared.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p1: G1Point<C>, _ q1: G2Point<C>, _ p2: G1Point<C>, _ q2: G2Point<C>) -> GT {
        guard let p1a = affine(p1), let q1a = q1.affine else { return evaluate(p2, q2) }
        guard let p2a = affine(p2), let q2a = q2.affine else { return evaluate(p1, q1) }
        var lines1 = LiveLines<C>(q1a), lines2 = LiveLines<C>(q2a)
        return run(p1a, &lines1, p2a, &lines2)
    }

    /// f_Q1(P1)·f_Q2(P2) with both Q prepared: the server's verification, no G2 arithmetic.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p1: G1Point<C>, _ q1: G2Prepared<C>, _ p2: G1Point<C>, _ q2: G2Prepared<C>) -> GT {
        guard let p1a = affine(p1), !q1.isInfinity else { return evaluate(p2, q2) }
        guard let p2a = affine(p2), !q2.isInfinity else { return evaluate(p1, q1) }
        var lines1 = PreparedLines(q1), lines2 = PreparedLines(q2)
        return run(p1a, &lines1, p2a, &lines2)
    }

    /// The product of the Miller functions of any number of pairs (one at a time; the fixed
    /// one- and two-pair entry points above are the fast paths).
    public static func evaluate(_ pairs: [(G1Point<C>, G2Point<C>)]) -> GT {
        var f = GT.one
        var index = 0
        while index + 1 < pairs.count {
            f = f * evaluate(pairs[index].0, pairs[index].1, pairs[index + 1].0, pairs[index + 1].1)
            index += 2
        }
        if index < pairs.count { f = f * evaluate(pairs[index].0, pairs[index].1) }
        return f
    }

    @inlinable
    static func run<S: LineSource>(_ p: AffineG1, _ lines: inout S) -> GT where S.C == C {
        let digits = C.ateLoopNAF
        var f = GT.one
        var index = digits.count - 2
        var first = true
        while index >= 0 {
            // f starts at 1: its first squaring is skipped.
            if !first { f = f.squared }
            first = false
            f = f.multiplied(by: lines.evaluate(lines.doubling(), at: p))
            let digit = digits[index]
            if digit != 0 { f = f.multiplied(by: lines.evaluate(lines.addition(negated: digit < 0), at: p)) }
            index -= 1
        }
        // u < 0 on both curves: f_{-n} equals conj(f_n) up to factors the final exponent kills.
        if C.uIsNegative { f = f.conjugate }
        if C.family == .bn {
            let (l1, l2) = lines.frobeniusLines()
            f = f.multiplied(by: lines.evaluate(l1, at: p))
            f = f.multiplied(by: lines.evaluate(l2, at: p))
        }
        return f
    }

    @inlinable
    static func run<S1: LineSource, S2: LineSource>(_ p1: AffineG1, _ lines1: inout S1,
                                                    _ p2: AffineG1, _ lines2: inout S2) -> GT
    where S1.C == C, S2.C == C {
        let digits = C.ateLoopNAF
        var f = GT.one
        var index = digits.count - 2
        var first = true
        while index >= 0 {
            if !first { f = f.squared }
            first = false
            f = f.multiplied(by: lines1.evaluate(lines1.doubling(), at: p1))
            f = f.multiplied(by: lines2.evaluate(lines2.doubling(), at: p2))
            let digit = digits[index]
            if digit != 0 {
                f = f.multiplied(by: lines1.evaluate(lines1.addition(negated: digit < 0), at: p1))
                f = f.multiplied(by: lines2.evaluate(lines2.addition(negated: digit < 0), at: p2))
            }
            index -= 1
        }
        if C.uIsNegative { f = f.conjugate }
        if C.family == .bn {
            let (a1, b1) = lines1.frobeniusLines()
            let (a2, b2) = lines2.frobeniusLines()
            f = f.multiplied(by: lines1.evaluate(a1, at: p1))
            f = f.multiplied(by: lines1.evaluate(b1, at: p1))
            f = f.multiplied(by: lines2.evaluate(a2, at: p2))
            f = f.multiplied(by: lines2.evaluate(b2, at: p2))
        }
        return f
    }
}
