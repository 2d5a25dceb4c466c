extension Fp12 {
    /// self·(a + b·k) (bAtKSquared false) or self·(a + b·k^2) (true), skipping the zero
    /// coefficients: the product by a Miller-loop line on a D-type or M-type twist, in Swift
    /// (the reference, and the product of fields without C kernels). Out of line, as `*` is.
    @inlinable @inline(never)
    package func sparseProduct(a: Fp4<P>, b: Fp2<P>, bAtKSquared: Bool) -> Fp12 {
        let aPlusB = Fp4(a.c0 + b, a.c1)
        if !bAtKSquared {
            // (f0 + f1 k + f2 k^2)(a + b k), k^3 = j
            let t0 = c0 * a
            let t1 = c1.times(b)
            return Fp12(
                t0 + c2.times(b).timesJ,
                (c0 + c1) * aPlusB - t0 - t1,
                t1 + c2 * a)
        } else {
            // (f0 + f1 k + f2 k^2)(a + b k^2)
            let t0 = c0 * a
            let t2 = c2.times(b)
            return Fp12(
                t0 + c1.times(b).timesJ,
                c1 * a + t2.timesJ,
                (c0 + c2) * aPlusB - t0 - t2)
        }
    }
}
