extension Fp2 {
    /// A square root when one exists, for p = 3 mod 4 (Adj and Rodríguez-Henríquez, algorithm 9).
    /// Used off the hot path (finding twist points for tests and negative vectors).
    public var squareRoot: Fp2? {
        if isZero { return .zero }
        let p = P.modulusBig
        let a1 = power((p - BigInt(3)).shiftedRight(2))
        let alpha = a1 * (a1 * self)
        let x0 = a1 * self
        let minusOne = -Fp2.one
        let root: Fp2
        if alpha == minusOne {
            root = Fp2(-x0.c1, x0.c0)  // i · x0
        } else {
            root = (Fp2.one + alpha).power((p - BigInt(1)).shiftedRight(1)) * x0
        }
        return root.squared == self ? root : nil
    }
}
