/// The pairs (P, lines of Q) of one Miller loop: multiplies f by the lines of one step for
/// every pair, in pair order. One pair, two pairs (the server's verification: no array, no
/// heap) and an array of pairs all run through the same loop, `MillerLoop.run`.
public protocol MillerPairs {
    associatedtype C: PairingCurve
    /// f times the lines of `step` (which has lines) of every pair, in place; advances their
    /// sources.
    mutating func multiply(_ f: inout Fp12<C.Field>, by step: MillerStep)
}

/// One pair: P in affine coordinates and the source of Q's lines.
@frozen
public struct MillerPair<S: LineSource>: MillerPairs {
    public typealias C = S.C
    @usableFromInline let p: (x: Fp<C.Field>, y: Fp<C.Field>)
    @usableFromInline var lines: S

    @inlinable
    public init(_ p: (x: Fp<C.Field>, y: Fp<C.Field>), _ lines: S) { self.p = p; self.lines = lines }

    @inlinable @inline(__always)
    public mutating func multiply(_ f: inout Fp12<C.Field>, by step: MillerStep) {
        switch step {
        case .doubling: f.multiply(by: lines.evaluate(lines.doubling(), at: p))
        case .addition: f.multiply(by: lines.evaluate(lines.addition(negated: false), at: p))
        case .negatedAddition: f.multiply(by: lines.evaluate(lines.addition(negated: true), at: p))
        case .frobenius:
            let (first, second) = lines.frobeniusLines()
            f.multiply(by: lines.evaluate(first, at: p))
            f.multiply(by: lines.evaluate(second, at: p))
        case .conjugation: break
        }
    }
}

/// Two groups of pairs, the first's lines multiplied in first at every step.
@frozen
public struct MillerPairsBoth<A: MillerPairs, B: MillerPairs>: MillerPairs where A.C == B.C {
    public typealias C = A.C
    @usableFromInline var first: A
    @usableFromInline var second: B

    @inlinable
    public init(_ first: A, _ second: B) { self.first = first; self.second = second }

    @inlinable @inline(__always)
    public mutating func multiply(_ f: inout Fp12<C.Field>, by step: MillerStep) {
        first.multiply(&f, by: step)
        second.multiply(&f, by: step)
    }
}

/// Any number of pairs with the same kind of line source.
extension Array: MillerPairs where Element: MillerPairs {
    public typealias C = Element.C

    @inlinable
    public mutating func multiply(_ f: inout Fp12<C.Field>, by step: MillerStep) {
        for index in indices { self[index].multiply(&f, by: step) }
    }
}
