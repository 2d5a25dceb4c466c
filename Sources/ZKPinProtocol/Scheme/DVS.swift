import ZKPinMath

/// Designated-verifier signatures (spec section 4.1): the one-pass proof with a message in its
/// challenge, made with a client secret that the device key z blinds, checked against the
/// identity's Pa = z^-1·Q instead of Q. Only the holder of z (and the PIN) can sign; only the
/// server (which holds SS) can verify.
extension MPin {
    /// A signature: U (and UT with a time permit), the challenge y it hashes to, and V.
    public struct DVSSignature: Sendable {
        public var u: G1
        public var ut: G1?
        public var y: BigInt
        public var v: G1
    }

    /// Pa = (z^-1 mod r)·Q; nil only for z = 0. z^-1 stays a secret scalar (wiped after use):
    /// with Pa public, it is as secret as z.
    public static func dvsPublicKey(z: SecretScalar<C>) -> G2? {
        guard var inverse = z.inverse else { return nil }
        defer { inverse.wipe() }
        return C.g2Generator.multiplied(bySecret: inverse)
    }

    /// z·CS (or z·TP for a time permit): the client's secret for ID' = ID ‖ Pa, blinded by z so
    /// that it pairs with Pa as CS pairs with Q. The token is then extracted from it as usual.
    public static func dvsBlinded(_ point: G1, z: SecretScalar<C>) -> G1 {
        point.multipliedInG1(bySecret: z)
    }

    /// U = x·A (UT = x·(A + AT)), y = int(hashit(time, (UT or U) ‖ message)) mod r,
    /// V = -((x + y) mod r)·(TOKEN + pin·A [+ z·TP]). `a` is the point of ID'; `timePermit` is
    /// the z-blinded permit and goes with `timePermitPoint`. The caller wipes x.
    public static func dvsSign(
        x: SecretScalar<C>, token: G1, pin: Int, hashedIDPoint a: G1, time: UInt32, message: [UInt8],
        timePermit: G1? = nil, timePermitPoint at: G1? = nil
    ) -> DVSSignature {
        let pass1 = clientPass1(x: x, token: token, pin: pin, hashedIDPoint: a, timePermit: timePermit, timePermitPoint: at)
        let y = MPinHash<C>.onePassChallenge(
            time: time, u: PointEncoding<C>.encode(pass1.u), ut: pass1.ut.map { PointEncoding<C>.encode($0) },
            message: message)
        // y is public (a hash of public values); SEC is not, and is used here once.
        let v = clientPass2(x: x, y: SecretScalar(public: y), sec: pass1.sec)
        return DVSSignature(u: pass1.u, ut: pass1.ut, y: y, v: v)
    }

    /// Accepts iff e(V, Pa)·e(y·(HTID or HID) + (UT or U), SS) == 1: one Miller loop over two
    /// pairs, Pa's lines computed on the fly (it differs per identity), SS's prepared.
    public static func dvsVerify(
        hid: G1, htid: G1? = nil, y: BigInt, u: G1, ut: G1? = nil, v: G1,
        publicKey pa: G2, serverSecret: G2Prepared<C>
    ) -> Verification {
        let p = (htid ?? hid).multipliedInG1(byPublic: y) + (ut ?? u)
        return dvsVerdict(MillerLoop<C>.evaluate(v, pa, p, serverSecret))
    }

    /// The same with Pa's lines prepared (a signer seen recently: its lines are kept, as SS's
    /// are); equal to the live one for every input (DVSTests checks every verdict both ways).
    public static func dvsVerify(
        hid: G1, htid: G1? = nil, y: BigInt, u: G1, ut: G1? = nil, v: G1,
        publicKey pa: G2Prepared<C>, serverSecret: G2Prepared<C>
    ) -> Verification {
        let p = (htid ?? hid).multipliedInG1(byPublic: y) + (ut ?? u)
        return dvsVerdict(MillerLoop<C>.evaluate(v, pa, p, serverSecret))
    }

    /// The same with the odd multiples of HTID or HID kept (the server's identity cache).
    public static func dvsVerify(
        multiplesOf base: G1OddMultiples<C>, y: BigInt, u: G1, ut: G1? = nil, v: G1,
        publicKey pa: G2Prepared<C>, serverSecret: G2Prepared<C>
    ) -> Verification {
        dvsVerdict(MillerLoop<C>.evaluate(v, pa, base.multiplied(byPublic: y) + (ut ?? u), serverSecret))
    }

    private static func dvsVerdict(_ f: GT) -> Verification {
        if Pairing<C>.finalExponentiationIsOne(f) { return Verification(accepted: true, e: .one) }
        let e = Pairing<C>.finalExponentiation(f)
        return Verification(accepted: e.isOne, e: e)
    }

    /// F = e(y·HID + U, Pa), the base of the PIN-error search for a signature: a wrong PIN
    /// leaves δ·A unblinded in V, so E = F^(-δ) with Pa in place of Q.
    public static func dvsPinErrorBase(hid: G1, y: BigInt, u: G1, publicKey pa: G2) -> GT {
        Pairing<C>.pairing(hid.multipliedInG1(byPublic: y) + u, pa)
    }

    public static func dvsPinErrorBase(hid: G1, y: BigInt, u: G1, publicKey pa: G2Prepared<C>) -> GT {
        Pairing<C>.pairing(hid.multipliedInG1(byPublic: y) + u, pa)
    }
}
