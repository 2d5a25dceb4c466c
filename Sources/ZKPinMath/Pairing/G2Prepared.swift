/// Every line of the Miller loop for one fixed G2 point, recorded once by walking the curve's
/// schedule (about 80 lines, a few kilobytes); evaluating a pairing with it does no G2
/// arithmetic.
public struct G2Prepared<C: PairingCurve>: Sendable {
    public let lines: [Line<C>]
    /// The schedule step each line belongs to (the two lines of BN's Frobenius step both say
    /// `frobenius`); replaying checks it in debug builds.
    public let steps: [MillerStep]
    public let isInfinity: Bool
    /// True when every line has ly = 1: each was divided by its ly (an Fp2 factor, which the
    /// final exponentiation removes like the others), so evaluating it at P costs one product
    /// fewer. One inversion for all of them (Montgomery's trick).
    @usableFromInline package let isNormalized: Bool

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public init(_ q: G2Point<C>) {
        guard let qa = q.affine else {
            (lines, steps, isInfinity, isNormalized) = ([], [], true, false)
            return
        }
        var live = LiveLines<C>(qa)
        var lines = [Line<C>](), steps = [MillerStep]()
        lines.reserveCapacity(C.millerSchedule.count + 1)
        steps.reserveCapacity(C.millerSchedule.count + 1)
        for step in C.millerSchedule {
            switch step {
            case .doubling: lines.append(live.doubling())
            case .addition: lines.append(live.addition(negated: false))
            case .negatedAddition: lines.append(live.addition(negated: true))
            case .frobenius:
                let (first, second) = live.frobeniusLines()
                lines += [first, second]
                steps.append(step)
            case .conjugation: continue
            }
            steps.append(step)
        }
        (self.lines, isNormalized) = Self.normalized(lines)
        self.steps = steps
        isInfinity = false
    }

    static func normalized(_ lines: [Line<C>]) -> ([Line<C>], Bool) {
        guard !lines.isEmpty, !lines.contains(where: { $0.ly.isZero }) else { return (lines, false) }
        var prefix = [Fp2<C.Field>]()
        prefix.reserveCapacity(lines.count)
        for line in lines { prefix.append((prefix.last ?? .one) * line.ly) }
        var inverse = prefix[lines.count - 1].inverse
        var result = lines
        for index in stride(from: lines.count - 1, through: 0, by: -1) {
            let lyInverse = index > 0 ? inverse * prefix[index - 1] : inverse
            inverse = inverse * lines[index].ly
            result[index] = Line(ly: .one, lx: lines[index].lx * lyInverse, lc: lines[index].lc * lyInverse)
        }
        return (result, true)
    }
}

/// Reads a `G2Prepared` in schedule order.
@frozen
public struct PreparedLines<C: PairingCurve>: LineSource {
    @usableFromInline let lines: [Line<C>]
    @usableFromInline let steps: [MillerStep]
    @usableFromInline let isNormalized: Bool
    @usableFromInline var next = 0

    @inlinable
    public init(_ prepared: G2Prepared<C>) {
        lines = prepared.lines; steps = prepared.steps; isNormalized = prepared.isNormalized
    }

    @inlinable @inline(__always)
    public func evaluate(_ line: Line<C>, at p: (x: Fp<C.Field>, y: Fp<C.Field>)) -> EvaluatedLine<C> {
        isNormalized ? EvaluatedLine(normalized: line, at: p) : EvaluatedLine(line, at: p)
    }

    /// The next line, which must belong to `step` (checked in debug builds: the loop and the
    /// recorder walk the same schedule, so a mismatch is a bug in one of them).
    @inlinable @inline(__always)
    mutating func take(_ step: MillerStep) -> Line<C> {
        #if DEBUG
            precondition(steps[next] == step, "prepared line \(next) is a \(steps[next]) line, replayed as \(step)")
        #endif
        defer { next += 1 }
        return lines[next]
    }

    @inlinable @inline(__always) public mutating func doubling() -> Line<C> { take(.doubling) }
    @inlinable @inline(__always) public mutating func addition(negated: Bool) -> Line<C> {
        take(negated ? .negatedAddition : .addition)
    }
    @inlinable @inline(__always) public mutating func frobeniusLines() -> (Line<C>, Line<C>) {
        (take(.frobenius), take(.frobenius))
    }
}
