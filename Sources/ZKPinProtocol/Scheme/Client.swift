import ZKPinMath

extension MPin {
    /// What pass 1 produces. `x` must not outlive pass 2: x, y and V together give the
    /// client secret (`SecretScalar.wipe`).
    public struct Pass1 {
        public var x: SecretScalar<C>
        public var u: G1
        public var ut: G1?
        /// TOKEN + PIN·A (+ TP): the recombined secret, used once by pass 2.
        public var sec: G1
    }

    /// Pass 1: SEC = TOKEN + (pin mod 10000)·A [+ TP], U = x·A, UT = x·(A + AT). Specialised,
    /// like pass 2, so that its point sums run the curve's own code, not the generic one.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func clientPass1(
        x: SecretScalar<C>, token: G1, pin: Int, hashedIDPoint a: G1,
        timePermit: G1? = nil, timePermitPoint at: G1? = nil
    ) -> Pass1 {
        var sec = token + a.multiplied(bySecret: pinScalar(pin), bitBound: pinBits)
        if let timePermit { sec = sec + timePermit }
        // A and AT are hashes to G1, SEC a sum of G1 points: GLV applies.
        let u = a.multipliedInG1(bySecret: x)
        let ut = at.map { (a + $0).multipliedInG1(bySecret: x) }
        return Pass1(x: x, u: u, ut: ut, sec: sec)
    }

    /// Pass 2: V = -((x + y) mod r)·SEC.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func clientPass2(x: SecretScalar<C>, y: SecretScalar<C>, sec: G1) -> G1 {
        var exponent = -(x + y)
        defer { exponent.wipe() }
        return sec.multipliedInG1(bySecret: exponent)
    }
}
