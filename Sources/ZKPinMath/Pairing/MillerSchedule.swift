/// One step of the optimal ate Miller loop. The whole loop of a curve is one list of steps
/// (`PairingCurve.millerSchedule`), computed once from the NAF digits of its loop count; the
/// loop for any number of pairs (`MillerLoop.run`) and the recorder of prepared lines
/// (`G2Prepared`) both walk that list, so a change to the loop is made in one place.
public enum MillerStep: UInt8, Sendable, Equatable {
    /// f := f^2 (skipped at the very first step, where f is 1), then f times the tangent at
    /// T, and T := 2T.
    case doubling
    /// f times the line through T and Q, and T := T + Q (a NAF digit +1).
    case addition
    /// f times the line through T and -Q, and T := T - Q (a NAF digit -1).
    case negatedAddition
    /// f := conj(f): the loop ran over |loop count| for a negative u, and f_{-n} equals
    /// conj(f_n) up to factors the final exponentiation removes.
    case conjugation
    /// BN only: f times the lines through T and π(Q), then through T + π(Q) and -π^2(Q).
    case frobenius

    /// Whether the step multiplies f by lines (every step but `conjugation`).
    @inlinable
    public var hasLines: Bool { self != .conjugation }

    /// The schedule of a curve: a doubling per NAF digit below the leading one (from the
    /// top), an addition after each non-zero digit, the conjugation when u < 0, and the
    /// Frobenius step for BN curves.
    package static func schedule(ateLoopNAF digits: [Int8], family: PairingFamily, uIsNegative: Bool) -> [MillerStep] {
        var steps: [MillerStep] = []
        for index in stride(from: digits.count - 2, through: 0, by: -1) {
            steps.append(.doubling)
            if digits[index] > 0 { steps.append(.addition) }
            if digits[index] < 0 { steps.append(.negatedAddition) }
        }
        if uIsNegative { steps.append(.conjugation) }
        if family == .bn { steps.append(.frobenius) }
        return steps
    }
}
