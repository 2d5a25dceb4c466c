/// The optimal ate Miller loop (spec section 1) for one pair, two pairs or any number of pairs.
///
/// Every entry point runs the one loop `run`, which walks the curve's `millerSchedule`; the
/// lines come from a `LineSource` per pair: computed on the fly from a running point T
/// (`LiveLines`) or read from lines recorded for a fixed G2 point (`G2Prepared`, the server's
/// Q and SS). Lines multiply f as sparse elements. No step allocates on the heap (but the
/// array of pairs of the n-pair entry points).
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
        var pair = MillerPair(pa, LiveLines<C>(qa))
        return run(&pair)
    }

    /// f_Q(P) for a prepared Q.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p: G1Point<C>, _ q: G2Prepared<C>) -> GT {
        guard let pa = affine(p), !q.isInfinity else { return .one }
        var pair = MillerPair(pa, PreparedLines(q))
        return run(&pair)
    }

    /// f_Q1(P1)·f_Q2(P2) with the squarings of f shared.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p1: G1Point<C>, _ q1: G2Point<C>, _ p2: G1Point<C>, _ q2: G2Point<C>) -> GT {
        guard let p1a = affine(p1), let q1a = q1.affine else { return evaluate(p2, q2) }
        guard let p2a = affine(p2), let q2a = q2.affine else { return evaluate(p1, q1) }
        var pairs = MillerPairsBoth(MillerPair(p1a, LiveLines<C>(q1a)), MillerPair(p2a, LiveLines<C>(q2a)))
        return run(&pairs)
    }

    /// f_Q1(P1)·f_Q2(P2) with both Q prepared: the server's verification, no G2 arithmetic.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p1: G1Point<C>, _ q1: G2Prepared<C>, _ p2: G1Point<C>, _ q2: G2Prepared<C>) -> GT {
        guard let p1a = affine(p1), !q1.isInfinity else { return evaluate(p2, q2) }
        guard let p2a = affine(p2), !q2.isInfinity else { return evaluate(p1, q1) }
        var pairs = MillerPairsBoth(MillerPair(p1a, PreparedLines(q1)), MillerPair(p2a, PreparedLines(q2)))
        return run(&pairs)
    }

    /// f_Q1(P1)·f_Q2(P2) with Q1 live and Q2 prepared: a DVS verification, whose Pa differs per
    /// identity (computed on the fly) while the server secret's lines are recorded once.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ p1: G1Point<C>, _ q1: G2Point<C>, _ p2: G1Point<C>, _ q2: G2Prepared<C>) -> GT {
        guard let p1a = affine(p1), let q1a = q1.affine else { return evaluate(p2, q2) }
        guard let p2a = affine(p2), !q2.isInfinity else { return evaluate(p1, q1) }
        var pairs = MillerPairsBoth(MillerPair(p1a, LiveLines<C>(q1a)), MillerPair(p2a, PreparedLines(q2)))
        return run(&pairs)
    }

    /// The product of the Miller functions of any number of pairs, with the squarings of f
    /// shared by all of them; pairs with a point at infinity contribute 1.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ pairs: [(G1Point<C>, G2Point<C>)]) -> GT {
        evaluate(pairs) { q in q.affine.map { LiveLines<C>($0) } }
    }

    /// The same for prepared G2 points.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func evaluate(_ pairs: [(G1Point<C>, G2Prepared<C>)]) -> GT {
        evaluate(pairs) { q in q.isInfinity ? nil : PreparedLines(q) }
    }

    /// Runs the loop over the pairs whose G1 point is finite and whose lines `lines` gives
    /// (nil for a G2 point at infinity).
    @inline(__always)
    static func evaluate<Q, Lines: LineSource>(_ pairs: [(G1Point<C>, Q)], lines: (Q) -> Lines?) -> GT where Lines.C == C {
        var collected: [MillerPair<Lines>] = []
        collected.reserveCapacity(pairs.count)
        for (p, q) in pairs {
            guard let pa = affine(p), let source = lines(q) else { continue }
            collected.append(MillerPair(pa, source))
        }
        return run(&collected)
    }

    /// The loop itself: the curve's schedule, step by step, over every pair.
    @inlinable
    public static func run<Pairs: MillerPairs>(_ pairs: inout Pairs) -> GT where Pairs.C == C {
        let steps = C.millerSchedule
        // The first step is a doubling with f = 1: peeled, so that it squares nothing. f is
        // squared and multiplied in place.
        var f = GT.one
        pairs.multiply(&f, by: steps[0])
        for index in 1..<steps.count {
            switch steps[index] {
            case .doubling:
                f.formSquare()
                pairs.multiply(&f, by: .doubling)
            case .conjugation: f = f.conjugate
            case let step: pairs.multiply(&f, by: step)
            }
        }
        return f
    }
}
