import ZKPinMath

extension MPin {
    /// The outcome of a verification with what the PIN-error search needs on failure.
    public struct Verification {
        public var accepted: Bool
        /// E = e(V, Q)·e(P, SS) after the final exponentiation (1 when accepted).
        public var e: GT
    }

    /// Accepts iff e(V, Q)·e(P, SS) == 1 with P = y·(HTID or HID) + (UT or U).
    /// `htid` and `ut` go together: both present when a time permit is used.
    public static func verify(
        hid: G1, htid: G1? = nil, y: BigInt, u: G1, ut: G1? = nil, v: G1,
        serverSecret: G2
    ) -> Verification {
        verify(hid: hid, htid: htid, y: y, u: u, ut: ut, v: v, serverSecret: G2Prepared(serverSecret))
    }

    /// The same with the server secret's Miller-loop lines prepared once (the relying party).
    public static func verify(
        hid: G1, htid: G1? = nil, y: BigInt, u: G1, ut: G1? = nil, v: G1,
        serverSecret: G2Prepared<C>
    ) -> Verification {
        verify(p: (htid ?? hid).multipliedInG1(byPublic: y) + (ut ?? u), v: v, serverSecret: serverSecret)
    }

    /// The same with the odd multiples of HTID (with a time permit) or HID kept: the server's
    /// identity cache holds them, so y·HID adds from affine tables built once per identity.
    public static func verify(
        multiplesOf base: G1OddMultiples<C>, y: BigInt, u: G1, ut: G1? = nil, v: G1, serverSecret: G2Prepared<C>
    ) -> Verification {
        verify(p: base.multiplied(byPublic: y) + (ut ?? u), v: v, serverSecret: serverSecret)
    }

    /// Accepts iff e(V, Q)·e(P, SS) == 1.
    static func verify(p: G1, v: G1, serverSecret: G2Prepared<C>) -> Verification {
        let f = MillerLoop<C>.evaluate(v, C.g2GeneratorPrepared, p, serverSecret)
        // Accepting needs only "is it 1" (cheaper on BLS12); E itself only on a rejection.
        if Pairing<C>.finalExponentiationIsOne(f) { return Verification(accepted: true, e: .one) }
        let e = Pairing<C>.finalExponentiation(f)
        return Verification(accepted: e.isOne, e: e)
    }

    /// F = e(y·HID + U, Q), the base of the PIN-error search.
    public static func pinErrorBase(hid: G1, y: BigInt, u: G1) -> GT {
        Pairing<C>.pairing(hid.multipliedInG1(byPublic: y) + u, C.g2GeneratorPrepared)
    }
}
