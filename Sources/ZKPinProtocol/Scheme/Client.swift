import ZKPinMath

extension MPin {
    /// What pass 1 produces. `x` must not outlive pass 2: x, y and V together give the
    /// client secret; the BigInt storage is zeroed when the last reference goes.
    public struct Pass1 {
        public var x: BigInt
        public var u: G1
        public var ut: G1?
        /// TOKEN + PIN·A (+ TP): the recombined secret, used once by pass 2.
        public var sec: G1
    }

    /// Pass 1: SEC = TOKEN + (pin mod 10000)·A [+ TP], U = x·A, UT = x·(A + AT).
    public static func clientPass1(x: BigInt, token: G1, pin: Int, hashedIDPoint a: G1,
                                   timePermit: G1? = nil, timePermitPoint at: G1? = nil) -> Pass1 {
        var sec = token + a.multiplied(bySecret: pinScalar(pin), bitBound: pinBits)
        if let timePermit { sec = sec + timePermit }
        // A and AT are hashes to G1, SEC a sum of G1 points: GLV applies.
        let u = a.multipliedInG1(bySecret: x)
        let ut = at.map { (a + $0).multipliedInG1(bySecret: x) }
        return Pass1(x: x, u: u, ut: ut, sec: sec)
    }

    /// Pass 2: V = -((x + y) mod r)·SEC.
    public static func clientPass2(x: BigInt, y: BigInt, sec: G1) -> G1 {
        sec.multipliedInG1(bySecret: (C.order - (x + y).mod(C.order)).mod(C.order))
    }
}
