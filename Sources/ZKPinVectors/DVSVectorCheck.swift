import ZKPinMath
import ZKPinProtocol

/// DVS vectors (spec section 4.1): Milagro's `../shared/dvs-vectors/*.json` and the project's
/// `Vectors/dvs_*.txt`, which add time permits (DATE, TIME_PERMIT, Z_TIME_PERMIT, UT), a
/// changed verification time (VERIFY_TIME) and EXPECT. A vector is one when it carries PA or
/// VERIFY_PA, keys no plain M-Pin file has.
extension VectorChecker {
    /// The keys of a DVS vector in the order the project's files write them (and the order a
    /// JSON object's fields are compared in).
    static let dvsOrder = [
        "TEST", "CURVE", "KIND", "HASH_BYTES", "MASTER_SECRET", "SERVER_SECRET", "MPIN_ID_HEX", "Z", "PA", "ID_PA_HEX",
        "HASH_ID_PA", "CLIENT_SECRET", "Z_CLIENT_SECRET", "DATE", "TIME_PERMIT", "Z_TIME_PERMIT", "PIN", "TOKEN",
        "SIGN_PIN", "TIME", "DOCUMENT", "MESSAGE_HEX", "X", "U", "UT", "Y", "V", "VERIFY_MESSAGE_HEX", "VERIFY_PA",
        "VERIFY_TIME", "SERVER_Y", "SERVER_RESULT", "PIN_ERROR", "EXPECT"
    ]
    static let dvsKeys: Set<String> = Set(dvsOrder)

    public static func isDVS(_ vector: TestVector) -> Bool { vector["PA"] != nil || vector["VERIFY_PA"] != nil }
}

extension CurveVectorCheck {
    /// Recomputes a DVS vector: the authority's values from MASTER_SECRET, the signer's from Z,
    /// PIN, SIGN_PIN, TIME, the message and X, and the server's verdict on VERIFY_MESSAGE_HEX,
    /// VERIFY_PA and VERIFY_TIME (each defaulting to what was signed). PIN_ERROR is `null` when
    /// the search finds none (accepted, or not a wrong PIN), as in Milagro's files.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    mutating func computeDVS() throws {
        guard let id = try bytesInput("MPIN_ID_HEX") else { throw Failure.invalid("no MPIN_ID_HEX") }
        if let hashBytes = try intInput("HASH_BYTES"), hashBytes != 32 {
            throw Failure.invalid("HASH_BYTES \(hashBytes): only SHA-256 (32) is M-Pin's hash")
        }
        _ = input("KIND")
        guard let master = try scalarInput("MASTER_SECRET").map({ SecretScalar<C>(public: $0) }),
            let zValue = try scalarInput("Z"), let pin = try intInput("PIN")
        else { throw Failure.invalid("a DVS vector needs MASTER_SECRET, Z and PIN") }
        let date = try intInput("DATE") ?? 0
        let suite = MPinCurveSuite<C>()

        let serverSecret = Scheme.serverSecretShare(master: master)
        record("SERVER_SECRET", serverSecret)
        let z = SecretScalar<C>(public: zValue)
        guard let pa = Scheme.dvsPublicKey(z: z) else { throw Failure.invalid("Z is 0") }
        record("PA", pa)
        let paBytes = Encoding.encode(pa)
        let identity = id + paBytes
        record("ID_PA_HEX", bytes: identity)
        let hashedID = Hash.hashID(identity)
        record("HASH_ID_PA", bytes: hashedID)
        let a = Hash.mapToG1(hashedID)
        let clientSecret = Scheme.clientSecretShare(master: master, hashedIDPoint: a)
        record("CLIENT_SECRET", clientSecret)
        let blinded = Scheme.dvsBlinded(clientSecret, z: z)
        record("Z_CLIENT_SECRET", blinded)
        var permit: G1Point<C>? = nil, at: G1Point<C>? = nil
        if date > 0 {
            guard date <= Int(UInt32.max) else { throw Failure.invalid("DATE is not a day number") }
            at = Hash.timePermitPoint(hashedID: hashedID, date: date)
            let timePermit = Scheme.clientSecretShare(master: master, hashedIDPoint: at!)
            record("TIME_PERMIT", timePermit)
            permit = Scheme.dvsBlinded(timePermit, z: z)
            record("Z_TIME_PERMIT", permit)
        }
        let token = Scheme.extractPIN(clientSecret: blinded, pin: pin, hashedIDPoint: a)
        record("TOKEN", token)

        // The message: SHA-256 of DOCUMENT when there is one, else as given.
        var message: [UInt8]
        if let document = input("DOCUMENT") {
            message = Digest.sha256(Array(document.utf8))
            record("MESSAGE_HEX", bytes: message)
        } else {
            guard let given = try bytesInput("MESSAGE_HEX") else { throw Failure.invalid("no DOCUMENT or MESSAGE_HEX") }
            message = given
        }
        guard let signPIN = try intInput("SIGN_PIN"), let time = try intInput("TIME"), let x = try scalarInput("X"),
            time > 0, time <= Int(UInt32.max)
        else { throw Failure.invalid("a DVS vector needs SIGN_PIN, X and a positive 32-bit TIME") }
        let signature = Scheme.dvsSign(
            x: SecretScalar(public: x), token: token, pin: signPIN, hashedIDPoint: a, time: UInt32(time),
            message: message, timePermit: permit, timePermitPoint: at)
        record("U", signature.u)
        record("UT", signature.ut)
        record("Y", scalar: signature.y)
        record("V", signature.v)

        // The server's side, through the byte-level suite (full decoding of what it is given).
        let verifyMessage = try bytesInput("VERIFY_MESSAGE_HEX") ?? message
        let verifyPA = try bytesInput("VERIFY_PA") ?? paBytes
        let verifyTime = try intInput("VERIFY_TIME") ?? time
        let signed = DVSSignatureBytes(
            time: verifyTime, u: Encoding.encode(signature.u), ut: signature.ut.map { Encoding.encode($0) },
            v: Encoding.encode(signature.v))
        if verifyTime > 0, verifyTime <= Int(UInt32.max) {
            let serverY = Hash.onePassChallenge(time: UInt32(verifyTime), u: signed.u, ut: signed.ut, message: verifyMessage)
            record("SERVER_Y", scalar: serverY)
        }
        let prepared = try suite.prepareServerSecret(Encoding.encode(serverSecret))
        let verdict = suite.dvsVerify(
            id: id, publicKey: verifyPA, date: date, serverSecret: prepared, message: verifyMessage, signature: signed)
        record("SERVER_RESULT", int: verdict.result.rawValue)
        computed["PIN_ERROR"] = verdict.pinError == 0 ? "null" : String(verdict.pinError)
        if try intInput("EXPECT") != nil { record("EXPECT", int: verdict.result.rawValue) }
    }
}
