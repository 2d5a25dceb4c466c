import ZKPinMath

/// `MPinSuite` for one concrete curve.
public struct MPinCurveSuite<C: PairingCurve>: MPinSuite {
    typealias Scheme = MPin<C>
    typealias Encoding = PointEncoding<C>

    public init() {}

    /// Every described curve's `name` is its CurveID (both generated from curves/).
    public var curve: CurveID { CurveID(rawValue: C.name)! }
    public var scalarByteCount: Int { C.scalarByteCount }
    public var g1ByteCount: Int { Encoding.g1ByteCount }
    public var g2ByteCount: Int { Encoding.g2ByteCount }

    public func hashID(_ id: [UInt8]) -> [UInt8] { MPinHash<C>.hashID(id) }

    public func randomScalar() -> [UInt8] { Scheme.randomScalar().bytes }

    // MARK: Decoding helpers

    func scalar(_ bytes: [UInt8], field: String) throws(MPinError) -> BigInt {
        guard bytes.count == C.scalarByteCount else { throw .invalidScalar(field: field) }
        let value = BigInt(bytes: bytes)
        guard !value.isZero, value < C.order else { throw .invalidScalar(field: field) }
        return value
    }

    /// `scalar` for a secret (a master-secret share, x): the same rules, without GMP.
    func secretScalar(_ bytes: [UInt8], field: String) throws(MPinError) -> SecretScalar<C> {
        guard bytes.count == C.scalarByteCount, let value = SecretScalar<C>(canonical: bytes), !value.isZero else {
            throw .invalidScalar(field: field)
        }
        return value
    }

    func g1(_ bytes: [UInt8], field: String) throws(MPinError) -> G1Point<C> {
        do { return try Encoding.decodeG1(bytes) } catch { throw .invalidPoint(field: field, reason: error) }
    }

    func g2(_ bytes: [UInt8], field: String) throws(MPinError) -> G2Point<C> {
        do { return try Encoding.decodeG2(bytes) } catch { throw .invalidPoint(field: field, reason: error) }
    }

    func checkPIN(_ pin: Int) throws(MPinError) {
        guard (0...9999).contains(pin) else { throw .invalidPIN }
    }

    func checkDate(_ date: Int) throws(MPinError) {
        guard date > 0, date <= Int(UInt32.max) else { throw .invalidDate }
    }

    /// Encodes a sum that may be infinity (e.g. two shares that cancel) as an error, never a trap.
    func encodeG1(_ point: G1Point<C>, field: String) throws(MPinError) -> [UInt8] {
        guard !point.isInfinity else { throw .invalidPoint(field: field, reason: .infinity) }
        return Encoding.encode(point)
    }

    // MARK: Trusted authorities

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func serverSecretShare(master: [UInt8]) throws(MPinError) -> [UInt8] {
        Encoding.encode(Scheme.serverSecretShare(master: try secretScalar(master, field: "master secret")))
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func clientSecretShare(master: [UInt8], id: [UInt8]) throws(MPinError) -> [UInt8] {
        let s = try secretScalar(master, field: "master secret")
        return Encoding.encode(Scheme.clientSecretShare(master: s, hashedIDPoint: MPinHash<C>.hashToG1(id: id)))
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func timePermitShare(master: [UInt8], id: [UInt8], date: Int) throws(MPinError) -> [UInt8] {
        let s = try secretScalar(master, field: "master secret")
        try checkDate(date)
        return Encoding.encode(Scheme.timePermitShare(master: s, hashedID: hashID(id), date: date))
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func clientSecretShare(master: [UInt8], hashedID: [UInt8]) throws(MPinError) -> [UInt8] {
        let s = try secretScalar(master, field: "master secret")
        guard hashedID.count == C.Field.byteCount else { throw .invalidScalar(field: "hashed ID") }
        return Encoding.encode(Scheme.clientSecretShare(master: s, hashedIDPoint: MPinHash<C>.mapToG1(hashedID)))
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func timePermitShare(master: [UInt8], hashedID: [UInt8], date: Int) throws(MPinError) -> [UInt8] {
        let s = try secretScalar(master, field: "master secret")
        try checkDate(date)
        guard hashedID.count == C.Field.byteCount else { throw .invalidScalar(field: "hashed ID") }
        return Encoding.encode(Scheme.timePermitShare(master: s, hashedID: hashedID, date: date))
    }

    // MARK: Recombination

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func addG1(_ a: [UInt8], _ b: [UInt8]) throws(MPinError) -> [UInt8] {
        try encodeG1(try g1(a, field: "share 1") + (try g1(b, field: "share 2")), field: "sum")
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func addG2(_ a: [UInt8], _ b: [UInt8]) throws(MPinError) -> [UInt8] {
        let sum = try g2(a, field: "share 1") + (try g2(b, field: "share 2"))
        guard !sum.isInfinity else { throw .invalidPoint(field: "sum", reason: .infinity) }
        return Encoding.encode(sum)
    }

    public func validateG1(_ point: [UInt8], field: String) throws(MPinError) { _ = try g1(point, field: field) }
    public func validateG2(_ point: [UInt8], field: String) throws(MPinError) { _ = try g2(point, field: field) }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func validateLoginPoints(u: [UInt8], ut: [UInt8]?, for serverSecret: PreparedServerSecret) throws(MPinError) {
        let uPoint = try g1(u, field: "U")
        let utPoint = try ut.map { bytes throws(MPinError) in try g1(bytes, field: "UT") }
        guard !C.g1CofactorIsOne else { return }
        serverSecret.loginPoints.remember(u, uPoint)
        if let ut, let utPoint { serverSecret.loginPoints.remember(ut, utPoint) }
    }

    /// A login's U or UT: the point pass 1 validated from these bytes, or decoded and validated now.
    func loginPoint(_ bytes: [UInt8], field: String, remembered: LoginPointCache) throws(MPinError) -> G1Point<C> {
        if !C.g1CofactorIsOne, let point: G1Point<C> = remembered.take(bytes) { return point }
        return try g1(bytes, field: field)
    }

    // MARK: Client

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func extractPIN(clientSecret: [UInt8], id: [UInt8], pin: Int) throws(MPinError) -> [UInt8] {
        try checkPIN(pin)
        let cs = try g1(clientSecret, field: "client secret")
        let token = Scheme.extractPIN(clientSecret: cs, pin: pin, hashedIDPoint: MPinHash<C>.hashToG1(id: id))
        return try encodeG1(token, field: "token")
    }

    public func changePIN(token: [UInt8], id: [UInt8], oldPIN: Int, newPIN: Int) throws(MPinError) -> [UInt8] {
        try checkPIN(oldPIN)
        try checkPIN(newPIN)
        let tokenPoint = try g1(token, field: "token")
        let changed = Scheme.changePIN(token: tokenPoint, oldPIN: oldPIN, newPIN: newPIN, hashedIDPoint: MPinHash<C>.hashToG1(id: id))
        return try encodeG1(changed, field: "token")
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func clientPass1(id: [UInt8], token: [UInt8], pin: Int, timePermit: [UInt8]?, date: Int) throws(MPinError) -> ClientPass1State {
        try checkPIN(pin)
        let tokenPoint = try g1(token, field: "token")
        let a = MPinHash<C>.hashToG1(id: id)
        var permit: G1Point<C>? = nil, at: G1Point<C>? = nil
        if let timePermit {
            try checkDate(date)
            permit = try g1(timePermit, field: "time permit")
            at = MPinHash<C>.timePermitPoint(hashedID: hashID(id), date: date)
        }
        let x = Scheme.randomScalar()
        let pass1 = Scheme.clientPass1(
            x: x, token: tokenPoint, pin: pin, hashedIDPoint: a,
            timePermit: permit, timePermitPoint: at)
        return ClientPass1State(
            u: try encodeG1(pass1.u, field: "U"),
            ut: try pass1.ut.map { p throws(MPinError) in try encodeG1(p, field: "UT") },
            x: x.bytes,
            sec: try encodeG1(pass1.sec, field: "SEC"))
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func clientPass2(_ state: ClientPass1State, y: [UInt8]) throws(MPinError) -> [UInt8] {
        defer { state.wipe() }
        guard !state.x.isEmpty else { throw .invalidScalar(field: "x (pass 2 already run)") }
        let challenge = try secretScalar(y, field: "y")
        var x = try secretScalar(state.x, field: "x")
        defer { x.wipe() }
        let sec = try g1(state.sec, field: "SEC")
        return try encodeG1(Scheme.clientPass2(x: x, y: challenge, sec: sec), field: "V")
    }

    // MARK: Relying party

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func prepareServerSecret(_ bytes: [UInt8], identityCacheEntries: Int) throws(MPinError) -> PreparedServerSecret {
        // The Miller-loop lines of SS are computed here once, not at every login.
        PreparedServerSecret(
            point: G2Prepared<C>(try g2(bytes, field: "server secret")), bytes: bytes, identityCacheEntries: identityCacheEntries)
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func serverVerify(
        id: [UInt8], date: Int, serverSecret: PreparedServerSecret,
        u: [UInt8], ut: [UInt8]?, v: [UInt8], y: [UInt8]
    ) -> ServerVerification {
        serverVerifyBatch([ServerVerifyInput(id: id, date: date, u: u, ut: ut, v: v, y: y)], serverSecret: serverSecret)[0]
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func serverVerifyBatch(_ logins: [ServerVerifyInput], serverSecret: PreparedServerSecret) -> [ServerVerification] {
        guard let ss = serverSecret.point as? G2Prepared<C> else {
            return logins.map { _ in ServerVerification(result: .rejected, pinError: 0) }
        }
        var results = [ServerVerification?](repeating: nil, count: logins.count)
        var checks: [Scheme.LoginCheck] = [], positions: [Int] = []
        for (index, login) in logins.enumerated() {
            do throws(MPinError) {
                checks.append(try loginCheck(login, identityPoints: serverSecret.identityPoints, loginPoints: serverSecret.loginPoints))
                positions.append(index)
            } catch {
                results[index] = ServerVerification(result: error.resultCode, pinError: 0)
            }
        }
        // A batch of one is the single verification itself (no random coefficients).
        let holds = checks.count == 1 ? [false] : Scheme.holdingChecks(checks, serverSecret: ss)
        for (check, (index, held)) in zip(checks, zip(positions, holds)) {
            results[index] = held ? ServerVerification(result: .accepted, pinError: 0) : verdict(check, serverSecret: ss)
        }
        return results.map { $0! }
    }

    /// The decoded, validated equation of one login; decoding failures are result -14.
    /// HID and HTID come from `identityPoints` when this identity logged in recently.
    /// U and UT come from `loginPoints` when pass 1 validated the same bytes.
    func loginCheck(_ login: ServerVerifyInput, identityPoints: IdentityPointCache, loginPoints: LoginPointCache) throws(MPinError)
        -> Scheme.LoginCheck
    {
        let challenge = try scalar(login.y, field: "y")
        let uPoint = try loginPoint(login.u, field: "U", remembered: loginPoints)
        let vPoint = try g1(login.v, field: "V")
        // Kept with their odd multiples, and with Z = 1: a batch then needs no inversion to put
        // them in affine form, and a single verification's y·HID no table of its own.
        let hidMultiples: G1OddMultiples<C> = identityPoints.point(id: login.id, date: 0) {
            G1OddMultiples(MPinHash<C>.mapToG1(hashID(login.id)))
        }
        let hid = hidMultiples.point
        var htidMultiples: G1OddMultiples<C>? = nil, utPoint: G1Point<C>? = nil
        if login.date > 0 {
            guard let ut = login.ut else { throw MPinError.invalidPoint(field: "UT", reason: .wrongLength(expected: g1ByteCount, got: 0)) }
            try checkDate(login.date)
            utPoint = try loginPoint(ut, field: "UT", remembered: loginPoints)
            htidMultiples = identityPoints.point(id: login.id, date: login.date) {
                G1OddMultiples(hid + MPinHash<C>.timePermitPoint(hashedID: hashID(login.id), date: login.date))
            }
        }
        return Scheme.LoginCheck(
            hid: hid, htid: htidMultiples?.point, u: uPoint, ut: utPoint, v: vPoint, y: challenge,
            baseMultiples: htidMultiples ?? hidMultiples)
    }

    /// Single verification, with the PIN-error search on a rejection.
    func verdict(_ check: Scheme.LoginCheck, serverSecret: G2Prepared<C>) -> ServerVerification {
        let verification = check.verify(serverSecret: serverSecret)
        if verification.accepted { return ServerVerification(result: .accepted, pinError: 0) }
        let f = Scheme.pinErrorBase(hid: check.hid, y: check.y, u: check.u)
        return ServerVerification(result: .rejected, pinError: Scheme.pinError(e: verification.e, f: f))
    }
}
