import ZKPinMath

/// DVS on bytes (spec section 4.1): every point decoded and fully validated (Pa on the twist
/// and in G2, U, UT and V in G1) before use, every failure a typed `MPinError`.
extension MPinCurveSuite {
    public func dvsKeyPair() -> DVSKeyPair {
        var z = Scheme.randomScalar()
        defer { z.wipe() }
        // A random z is never 0, so its inverse exists.
        return DVSKeyPair(z: z.bytes, publicKey: Encoding.encode(Scheme.dvsPublicKey(z: z)!))
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func dvsKeyPair(z: [UInt8]) throws(MPinError) -> DVSKeyPair {
        var key = try secretScalar(z, field: "z")
        defer { key.wipe() }
        guard let pa = Scheme.dvsPublicKey(z: key) else { throw .invalidScalar(field: "z") }
        return DVSKeyPair(z: z, publicKey: Encoding.encode(pa))
    }

    public func dvsIdentity(id: [UInt8], publicKey: [UInt8]) throws(MPinError) -> [UInt8] {
        _ = try g2(publicKey, field: "Pa")
        return id + publicKey
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func dvsBlind(_ point: [UInt8], z: [UInt8], field: String) throws(MPinError) -> [UInt8] {
        var key = try secretScalar(z, field: "z")
        defer { key.wipe() }
        return try encodeG1(Scheme.dvsBlinded(try g1(point, field: field), z: key), field: field)
    }

    public func dvsSign(
        identity: [UInt8], token: [UInt8], pin: Int, message: [UInt8], time: Int,
        timePermit: [UInt8]?, date: Int
    ) throws(MPinError) -> DVSSignatureBytes {
        var x = Scheme.randomScalar()
        defer { x.wipe() }
        return try dvsSign(
            identity: identity, token: token, pin: pin, message: message, time: time,
            timePermit: timePermit, date: date, x: x)
    }

    /// The same with a given x: for vectors and tests only. Two signatures with one x give
    /// the blinded client secret away (V1 - V2 = (y2 - y1)·SEC).
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    package func dvsSign(
        identity: [UInt8], token: [UInt8], pin: Int, message: [UInt8], time: Int,
        timePermit: [UInt8]?, date: Int, x: SecretScalar<C>
    ) throws(MPinError) -> DVSSignatureBytes {
        try checkPIN(pin)
        let seconds = try checkTime(time)
        let tokenPoint = try g1(token, field: "token")
        let a = MPinHash<C>.hashToG1(id: identity)
        var permit: G1Point<C>? = nil, at: G1Point<C>? = nil
        if let timePermit {
            try checkDate(date)
            permit = try g1(timePermit, field: "time permit")
            at = MPinHash<C>.timePermitPoint(hashedID: hashID(identity), date: date)
        }
        let signature = Scheme.dvsSign(
            x: x, token: tokenPoint, pin: pin, hashedIDPoint: a, time: seconds, message: message,
            timePermit: permit, timePermitPoint: at)
        return DVSSignatureBytes(
            time: time, u: try encodeG1(signature.u, field: "U"),
            ut: try signature.ut.map { p throws(MPinError) in try encodeG1(p, field: "UT") },
            v: try encodeG1(signature.v, field: "V"))
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func dvsVerify(
        id: [UInt8], publicKey: [UInt8], date: Int, serverSecret: PreparedServerSecret,
        message: [UInt8], signature: DVSSignatureBytes, signer: DVSSigner, cachingPublicKey: Bool
    ) -> ServerVerification {
        guard let ss = serverSecret.point as? G2Prepared<C> else { return ServerVerification(result: .rejected, pinError: 0) }
        do throws(MPinError) {
            let check: DVSCheck
            let verification: Scheme.Verification
            let dvsBase: () -> Scheme.GT
            if cachingPublicKey {
                // Pa validated and its lines computed once per signer; HID shared with its logins.
                let pa: G2Prepared<C> = try serverSecret.publicKeyLines.lines(publicKey) { () throws(MPinError) in
                    G2Prepared(try g2(publicKey, field: "Pa"))
                }
                check = try dvsCheck(
                    id: id, publicKey: publicKey, date: date, message: message, signature: signature, identityPoints: serverSecret.identityPoints)
                verification =
                    check.baseMultiples.map {
                        Scheme.dvsVerify(multiplesOf: $0, y: check.y, u: check.u, ut: check.ut, v: check.v, publicKey: pa, serverSecret: ss)
                    }
                    ?? Scheme.dvsVerify(
                        hid: check.hid, htid: check.htid, y: check.y, u: check.u, ut: check.ut, v: check.v, publicKey: pa, serverSecret: ss)
                dvsBase = { Scheme.dvsPinErrorBase(hid: check.hid, y: check.y, u: check.u, publicKey: pa) }
            } else {
                let pa = try g2(publicKey, field: "Pa")
                check = try dvsCheck(id: id, publicKey: publicKey, date: date, message: message, signature: signature, identityPoints: nil)
                verification = Scheme.dvsVerify(
                    hid: check.hid, htid: check.htid, y: check.y, u: check.u, ut: check.ut, v: check.v, publicKey: pa, serverSecret: ss)
                dvsBase = { Scheme.dvsPinErrorBase(hid: check.hid, y: check.y, u: check.u, publicKey: pa) }
            }
            if verification.accepted { return ServerVerification(result: .accepted, pinError: 0) }
            let f = signer == .blindedToken ? dvsBase() : Scheme.pinErrorBase(hid: check.hid, y: check.y, u: check.u)
            return ServerVerification(result: .rejected, pinError: Scheme.pinError(e: verification.e, f: f))
        } catch {
            return ServerVerification(result: error.resultCode, pinError: 0)
        }
    }

    /// The decoded, validated values of one signature's equation (Pa apart), y recomputed.
    struct DVSCheck {
        var hid: G1Point<C>, htid: G1Point<C>?
        var u: G1Point<C>, ut: G1Point<C>?, v: G1Point<C>
        var y: BigInt
        /// The odd multiples of HTID or HID, when they came from `identityPoints`.
        var baseMultiples: G1OddMultiples<C>?
    }

    /// HID (and HTID) of ID' = `id` ‖ `publicKey` from `identityPoints` when given, with their
    /// odd multiples.
    func dvsCheck(
        id: [UInt8], publicKey: [UInt8], date: Int, message: [UInt8], signature: DVSSignatureBytes, identityPoints: IdentityPointCache?
    ) throws(MPinError) -> DVSCheck {
        let u = try g1(signature.u, field: "U")
        let v = try g1(signature.v, field: "V")
        let seconds = try checkTime(signature.time)
        let identity = id + publicKey
        // As a login keeps them.
        let hidMultiples: G1OddMultiples<C>? = identityPoints?.point(id: identity, date: 0) {
            G1OddMultiples(MPinHash<C>.mapToG1(hashID(identity)))
        }
        let hid = hidMultiples?.point ?? MPinHash<C>.mapToG1(hashID(identity))
        var htid: G1Point<C>? = nil, ut: G1Point<C>? = nil, htidMultiples: G1OddMultiples<C>? = nil
        if date > 0 {
            guard let utBytes = signature.ut else { throw .invalidPoint(field: "UT", reason: .wrongLength(expected: g1ByteCount, got: 0)) }
            try checkDate(date)
            ut = try g1(utBytes, field: "UT")
            let permitPoint = { hid + MPinHash<C>.timePermitPoint(hashedID: hashID(identity), date: date) }
            htidMultiples = identityPoints?.point(id: identity, date: date) { G1OddMultiples(permitPoint()) }
            htid = htidMultiples?.point ?? permitPoint()
        }
        let y = MPinHash<C>.onePassChallenge(time: seconds, u: signature.u, ut: date > 0 ? signature.ut : nil, message: message)
        return DVSCheck(hid: hid, htid: htid, u: u, ut: ut, v: v, y: y, baseMultiples: date > 0 ? htidMultiples : hidMultiples)
    }

    func checkTime(_ time: Int) throws(MPinError) -> UInt32 {
        guard time > 0, time <= Int(UInt32.max) else { throw .invalidTime }
        return UInt32(time)
    }
}

extension MPinSuite {
    /// `dvsSign` with a given x (PGS bytes) on this suite's curve: for tests that compare
    /// implementations byte for byte, never for a real signature (see the curve suite's own).
    package func dvsSign(
        identity: [UInt8], token: [UInt8], pin: Int, message: [UInt8], time: Int,
        timePermit: [UInt8]?, date: Int, x: [UInt8]
    ) throws(MPinError) -> DVSSignatureBytes {
        try curve.run(
            DVSSignWithX(
                identity: identity, token: token, pin: pin, message: message, time: time, timePermit: timePermit, date: date, x: x)
        ).get()
    }
}

struct DVSSignWithX: CurveOperation {
    let identity: [UInt8], token: [UInt8], pin: Int, message: [UInt8], time: Int
    let timePermit: [UInt8]?, date: Int, x: [UInt8]

    func run<C: PairingCurve>(on curve: C.Type) -> Result<DVSSignatureBytes, MPinError> {
        let suite = MPinCurveSuite<C>()
        do throws(MPinError) {
            var scalar = try suite.secretScalar(x, field: "x")
            defer { scalar.wipe() }
            return .success(
                try suite.dvsSign(
                    identity: identity, token: token, pin: pin, message: message, time: time, timePermit: timePermit, date: date,
                    x: scalar))
        } catch {
            return .failure(error)
        }
    }
}
