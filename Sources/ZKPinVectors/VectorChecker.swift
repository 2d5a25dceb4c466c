import ZKPinMath
import ZKPinProtocol

/// The verdict on one vector.
public enum VectorOutcome: Equatable, Sendable {
    case passed
    /// `field` is the first field, in file order, whose recomputed value differs.
    case mismatch(field: String, expected: String, computed: String)
    /// The vector cannot be checked (missing or malformed input).
    case invalid(String)

    public var passed: Bool { self == .passed }
}

/// Recomputes every field of a vector from its inputs and compares, in file order.
public enum VectorChecker {
    /// Keys the checker knows; any other key (`mpin_id`, `test_no`, ...) is ignored.
    static let knownKeys: Set<String> = Set(VectorFile.canonicalOrder)

    /// Spec aliases: the BLS381 files name some fields differently.
    static let aliases = [
        "SS": "SERVER_SECRET", "CS": "CLIENT_SECRET", "MPINId": "MPIN_ID_HEX",
        "AuthResult": "SERVER_OUTPUT", "SERVER_2": "SERVER_OUTPUT"
    ]

    public static func check(_ vector: TestVector) -> VectorOutcome {
        let curve: CurveID
        switch detectCurve(vector) {
        case .found(let found): curve = found
        case .unknown(let message): return .invalid(message)
        }
        return curve.run(Check(vector: vector))
    }

    struct Check: CurveOperation {
        let vector: TestVector
        func run<C: PairingCurve>(on curve: C.Type) -> VectorOutcome {
            var check = CurveVectorCheck<C>(vector: vector)
            return check.run()
        }
    }

    /// CURVE when present, else the size of the first sized field (among the curves whose
    /// upstream files have no CURVE key).
    enum CurveDetection {
        case found(CurveID)
        case unknown(String)
    }

    static func detectCurve(_ vector: TestVector) -> CurveDetection {
        if let name = vector["CURVE"] {
            guard let curve = CurveID(name: name) else { return .unknown("unknown CURVE \(name)") }
            return .found(curve)
        }
        // Each field's size on each curve: a scalar, a G2 point, a G1 point (uncompressed).
        let sizes: [(String, (any MPinSuite) -> Int)] = [
            ("MS1", \.scalarByteCount), ("SERVER_SECRET", \.g2ByteCount), ("SS", \.g2ByteCount),
            ("SS1", \.g2ByteCount), ("U", \.g1ByteCount), ("CLIENT_SECRET", \.g1ByteCount)
        ]
        for (key, size) in sizes {
            if let value = vector[key] {
                let curve = CurveID.unlabelledVectorCurves.first { size($0.suite) == value.count / 2 }
                if let curve { return .found(curve) }
            }
        }
        return .unknown("cannot tell the curve (no CURVE key and no field of a known size)")
    }
}

/// One vector on one curve. Reads inputs, computes each derived field once, then compares.
struct CurveVectorCheck<C: PairingCurve> {
    typealias Scheme = MPin<C>
    typealias Encoding = PointEncoding<C>
    typealias Hash = MPinHash<C>

    let vector: TestVector
    /// The file's fields under their canonical names.
    var fields: [String: String] = [:]
    var computed: [String: String] = [:]
    var inputs: Set<String> = []

    init(vector: TestVector) {
        self.vector = vector
        for (key, value) in vector.fields {
            fields[VectorChecker.aliases[key] ?? key] = value
        }
    }

    enum Failure: Error { case invalid(String) }

    // MARK: Reading inputs

    mutating func input(_ key: String) -> String? {
        guard let value = fields[key] else { return nil }
        inputs.insert(key)
        return value
    }

    mutating func bytesInput(_ key: String) throws -> [UInt8]? {
        guard let text = input(key) else { return nil }
        guard let bytes = [UInt8](hex: text) else { throw Failure.invalid("\(key) is not hex") }
        return bytes
    }

    mutating func scalarInput(_ key: String) throws -> BigInt? {
        try bytesInput(key).map { BigInt(bytes: $0) }
    }

    mutating func intInput(_ key: String) throws -> Int? {
        guard let text = input(key) else { return nil }
        guard let value = Int(text) else { throw Failure.invalid("\(key) is not a decimal number") }
        return value
    }

    /// A point given as an input (a share or a transmitted value); invalid points are kept as
    /// raw bytes so that verification can report -14 for them.
    mutating func g1Input(_ key: String) throws -> G1Point<C>? {
        guard let bytes = try bytesInput(key) else { return nil }
        return try? Encoding.decodeG1(bytes)
    }

    mutating func g2Input(_ key: String) throws -> G2Point<C>? {
        guard let bytes = try bytesInput(key) else { return nil }
        return try? Encoding.decodeG2(bytes)
    }

    // MARK: Recording results

    mutating func record(_ key: String, _ point: G1Point<C>?) {
        guard let point, !point.isInfinity else { return }
        computed[key] = Encoding.encode(point).hexString
    }

    mutating func record(_ key: String, _ point: G2Point<C>?) {
        guard let point, !point.isInfinity else { return }
        computed[key] = Encoding.encode(point).hexString
    }

    mutating func record(_ key: String, bytes: [UInt8]) { computed[key] = bytes.hexString }
    mutating func record(_ key: String, scalar: BigInt) { computed[key] = scalar.hex(byteCount: C.scalarByteCount) }
    mutating func record(_ key: String, int: Int) { computed[key] = String(int) }

    // MARK: The computation

    mutating func run() -> VectorOutcome {
        let dvs = VectorChecker.isDVS(vector)
        do {
            if dvs { try computeDVS() } else { try compute() }
        } catch Failure.invalid(let message) { return .invalid(message) } catch {
            return .invalid("\(error)")
        }
        return compare(knownKeys: dvs ? VectorChecker.dvsKeys : VectorChecker.knownKeys)
    }

    /// Compares every known field in file order; a known field that could not be recomputed
    /// and was not an input is a failure too.
    func compare(knownKeys: Set<String> = VectorChecker.knownKeys) -> VectorOutcome {
        for (key, value) in vector.fields where knownKeys.contains(key) {
            let name = VectorChecker.aliases[key] ?? key
            if let mine = computed[name] {
                if mine.lowercased() != value.lowercased() {
                    return .mismatch(field: key, expected: value, computed: mine)
                }
            } else if !inputs.contains(name) && !["TEST", "CURVE"].contains(name) {
                return .invalid("\(key) cannot be recomputed from this vector's inputs")
            }
        }
        return .passed
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    mutating func compute() throws {
        guard let id = try bytesInput("MPIN_ID_HEX") else { throw Failure.invalid("no MPIN_ID_HEX or MPINId") }
        let serverDate = try intInput("DATE") ?? 0
        // PERMIT_DATE (project vectors): the day of the permit the client holds, when it differs.
        let permitDate = try intInput("PERMIT_DATE") ?? serverDate
        let pin1 = try intInput("PIN1"), pin2 = try intInput("PIN2")
        // The vector files' secrets are public test data: SecretScalar(public:) reads them with GMP.
        let ms1 = try scalarInput("MS1").map { SecretScalar<C>(public: $0) }
        let ms2 = try scalarInput("MS2").map { SecretScalar<C>(public: $0) }
        let onePass = fields["TimeValue"] != nil

        // Hashing.
        let hashedID = Hash.hashID(id)
        record("HASH_MPIN_ID_HEX", bytes: hashedID)
        let a = Hash.mapToG1(hashedID)
        record("HID", a)

        // Server secret: from the master shares, else from the given shares, else given.
        let ss1 = try ms1.map { Scheme.serverSecretShare(master: $0) } ?? g2Input("SS1")
        let ss2 = try ms2.map { Scheme.serverSecretShare(master: $0) } ?? g2Input("SS2")
        record("SS1", ms1 != nil ? ss1 : nil)
        record("SS2", ms2 != nil ? ss2 : nil)
        var serverSecret: G2Point<C>? = nil
        if let ss1, let ss2 { serverSecret = ss1 + ss2; record("SERVER_SECRET", serverSecret) }
        var serverSecretBytes = serverSecret.map { Encoding.encode($0) }
        if serverSecret == nil, let given = try bytesInput("SERVER_SECRET") { serverSecretBytes = given }

        // Client secret and its shares.
        let cs1 = try ms1.map { Scheme.clientSecretShare(master: $0, hashedIDPoint: a) } ?? g1Input("CS1")
        let cs2 = try ms2.map { Scheme.clientSecretShare(master: $0, hashedIDPoint: a) } ?? g1Input("CS2")
        record("CS1", ms1 != nil ? cs1 : nil)
        record("CS2", ms2 != nil ? cs2 : nil)
        var clientSecret: G1Point<C>? = nil
        if let cs1, let cs2 {
            clientSecret = cs1 + cs2; record("CLIENT_SECRET", clientSecret)
        } else if fields["TOKEN"] != nil, fields["CLIENT_SECRET"] != nil {
            clientSecret = try g1Input("CLIENT_SECRET")
        }
        if ms1 == nil, let clientSecret, let serverSecret {
            // Without master secrets, check the shares belong together: e(CS, Q) = e(A, SS).
            if Pairing<C>.pairing(clientSecret, C.g2Generator) != Pairing<C>.pairing(a, serverSecret) {
                throw Failure.invalid("CLIENT_SECRET does not match SERVER_SECRET: e(CS, Q) != e(A, SS)")
            }
        }

        // Time permit for the client's day.
        var timePermit: G1Point<C>? = nil
        var clientAT: G1Point<C>? = nil
        if permitDate > 0 {
            clientAT = Hash.timePermitPoint(hashedID: hashedID, date: permitDate)
            let tp1 = try ms1.map { Scheme.timePermitShare(master: $0, hashedID: hashedID, date: permitDate) } ?? g1Input("TP1")
            let tp2 = try ms2.map { Scheme.timePermitShare(master: $0, hashedID: hashedID, date: permitDate) } ?? g1Input("TP2")
            record("TP1", ms1 != nil ? tp1 : nil)
            record("TP2", ms2 != nil ? tp2 : nil)
            if let tp1, let tp2 { timePermit = tp1 + tp2; record("TIME_PERMIT", timePermit) } else { timePermit = try g1Input("TIME_PERMIT") }
        }
        var htid: G1Point<C>? = nil
        if serverDate > 0 {
            htid = a + Hash.timePermitPoint(hashedID: hashedID, date: serverDate)
            record("HTID", htid)
        }

        // Token and the client's passes.
        var token: G1Point<C>? = nil
        if let clientSecret, let pin1 {
            token = Scheme.extractPIN(clientSecret: clientSecret, pin: pin1, hashedIDPoint: a)
            record("TOKEN", token)
        } else {
            token = try g1Input("TOKEN")
        }
        let x = try scalarInput("X")
        var pass1: Scheme.Pass1? = nil
        if let x, let token, let pin2 {
            pass1 = Scheme.clientPass1(
                x: SecretScalar(public: x), token: token, pin: pin2, hashedIDPoint: a,
                timePermit: timePermit, timePermitPoint: clientAT)
            record("U", pass1?.u)
            record("UT", pass1?.ut)
            if !onePass { record("SEC", pass1?.sec) }
        }
        // The transmitted values: recomputed when possible, else as given.
        let uBytes = try pass1.map { Encoding.encode($0.u) } ?? bytesInput("U")
        let utBytes = try pass1?.ut.map { Encoding.encode($0) } ?? (serverDate > 0 ? bytesInput("UT") : nil)

        // The challenge y: the one-pass hash of TimeValue, or given.
        var y: BigInt? = nil
        if onePass {
            guard let time = try intInput("TimeValue"), time > 0, time <= Int(UInt32.max), let uBytes else {
                throw Failure.invalid("TimeValue needs U and a positive 32-bit time")
            }
            y = Hash.onePassChallenge(time: UInt32(time), u: uBytes, ut: serverDate > 0 ? utBytes : nil)
            record("Y", scalar: y!)
        } else {
            y = try scalarInput("Y")
        }

        var vBytes: [UInt8]? = nil
        if let pass1, let y {
            let v = Scheme.clientPass2(x: pass1.x, y: SecretScalar(public: y), sec: pass1.sec)
            record(onePass ? "SEC" : "V", v)
            vBytes = Encoding.encode(v)
        } else {
            vBytes = try bytesInput(onePass ? "SEC" : "V")
        }

        // Server verification with full decoding of what was transmitted.
        if let y, let uBytes, let vBytes, let serverSecretBytes {
            let suite = MPinCurveSuite<C>()
            let yBytes = y.mod(C.order).bytes(count: C.scalarByteCount)
            var verification = ServerVerification(result: .pointDecodingFailed, pinError: 0)
            if let prepared = try? suite.prepareServerSecret(serverSecretBytes) {
                verification = suite.serverVerify(
                    id: id, date: serverDate, serverSecret: prepared,
                    u: uBytes, ut: utBytes, v: vBytes, y: yBytes)
            }
            record("SERVER_OUTPUT", int: verification.result.rawValue)
            // Batch verification must give this login the same verdict among genuine ones.
            if let prepared = try? suite.prepareServerSecret(serverSecretBytes), let clientSecret, let pin1,
                serverDate == 0 || (permitDate == serverDate && timePermit != nil)
            {
                let login = ServerVerifyInput(id: id, date: serverDate, u: uBytes, ut: utBytes, v: vBytes, y: yBytes)
                let genuine = Self.genuineLogins(
                    7, id: id, clientSecret: clientSecret, pin: pin1, a: a,
                    timePermit: serverDate > 0 ? timePermit : nil,
                    timePermitPoint: clientAT, date: serverDate)
                let position = Int(hashedID[0]) % (genuine.count + 1)
                var batch = genuine
                batch.insert(login, at: position)
                var verdicts = suite.serverVerifyBatch(batch, serverSecret: prepared)
                let batched = verdicts.remove(at: position)
                if batched != verification || !verdicts.allSatisfy(\.accepted) {
                    computed["SERVER_OUTPUT"] =
                        "batch verification differs: \(batched.result.rawValue) in a batch, "
                        + "\(verification.result.rawValue) alone, genuine logins accepted: \(verdicts.map(\.accepted))"
                }
            }
            if verification.result == .rejected {
                record("KANGAROO", int: verification.pinError)
                if let u = try? Encoding.decodeG1(uBytes), let v = try? Encoding.decodeG1(vBytes),
                    let ss = try? Encoding.decodeG2(serverSecretBytes)
                {
                    let utPoint = utBytes.flatMap { try? Encoding.decodeG1($0) }
                    let e = Scheme.verify(hid: a, htid: htid, y: y, u: u, ut: utPoint, v: v, serverSecret: ss).e
                    record("E", bytes: e.bytes)
                    record("F", bytes: Scheme.pinErrorBase(hid: a, y: y, u: u).bytes)
                }
            }
            if try intInput("EXPECT") != nil { record("EXPECT", int: verification.result.rawValue) }
        }

        // M-Pin Full: the key agreement after the login.
        if let rc = try scalarInput("R"), let w = try scalarInput("W"), let token, let pin2, let x, let y,
            let uBytes, let vBytes, let serverSecretBytes
        {
            let precompute = Scheme.clientPrecompute(token: token, hashedIDPoint: a)
            record("PRECOMPUTE_G1", bytes: precompute.g1.bytes)
            record("PRECOMPUTE_G2", bytes: precompute.g2.bytes)
            let z = a.multiplied(bySecret: rc)
            let t = (htid ?? a).multiplied(bySecret: w)
            record("Z", z)
            record("T", t)
            let hashAll = Hash.hashAll(
                hashedID: hashedID, u: uBytes, ut: serverDate > 0 ? utBytes : nil, v: vBytes,
                y: y.bytes(count: C.scalarByteCount), z: Encoding.encode(z), t: Encoding.encode(t))
            record("HASH_ALL", bytes: hashAll)
            let h = Scheme.keyHashScalar(hashAll)
            record(
                "CLIENT_KEY", bytes: Scheme.clientKey(g1: precompute.g1, g2: precompute.g2, pin: pin2, rc: rc, h: h, x: SecretScalar(public: x), t: t)
            )
            if let ss = try? Encoding.decodeG2(serverSecretBytes), let u = try? Encoding.decodeG1(uBytes) {
                let ut = serverDate > 0 ? utBytes.flatMap { try? Encoding.decodeG1($0) } : nil
                record("SERVER_KEY", bytes: Scheme.serverKey(z: z, serverSecret: ss, w: SecretScalar(public: w), h: h, hid: a, u: u, ut: ut))
            }
        }
    }

    /// `count` fresh logins with the registered PIN (new x and y), for batches.
    static func genuineLogins(
        _ count: Int, id: [UInt8], clientSecret: G1Point<C>, pin: Int, a: G1Point<C>,
        timePermit: G1Point<C>?, timePermitPoint: G1Point<C>?, date: Int
    ) -> [ServerVerifyInput] {
        let token = Scheme.extractPIN(clientSecret: clientSecret, pin: pin, hashedIDPoint: a)
        return (0..<count).map { _ in
            let x = Scheme.randomScalar(), y = Scheme.randomScalar()
            let pass1 = Scheme.clientPass1(
                x: x, token: token, pin: pin, hashedIDPoint: a,
                timePermit: timePermit, timePermitPoint: timePermit == nil ? nil : timePermitPoint)
            return ServerVerifyInput(
                id: id, date: date, u: Encoding.encode(pass1.u), ut: pass1.ut.map { Encoding.encode($0) },
                v: Encoding.encode(Scheme.clientPass2(x: x, y: y, sec: pass1.sec)),
                y: y.bytes)
        }
    }
}
