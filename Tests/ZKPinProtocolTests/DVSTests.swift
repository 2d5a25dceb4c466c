import Testing
import ZKPinMath
import ZKPinTestSupport

@testable import ZKPinProtocol

/// DVS signatures (spec section 4.1) on bytes, both curves: signing and verifying seeded random
/// messages, refusal of a changed message, Pa or time, the PIN error of a wrong PIN, and typed
/// errors for bad encodings. Every assertion names the seed (ZKPIN_TEST_SEED replays it).
struct DVSTests {
    /// One deployment (one master secret: the sum of two shares changes nothing here) and one
    /// signer, all drawn from the seed.
    struct Signer<C: PairingCurve> {
        let suite = MPinCurveSuite<C>()
        let id: [UInt8]
        let keys: DVSKeyPair
        let identity: [UInt8]
        let master: [UInt8]
        let serverSecret: PreparedServerSecret
        let pin: Int
        /// How to replay the test's seed, named by the equivalence checks in `verify`.
        let replay: String

        init(_ random: inout SeededRandom) throws {
            replay = random.replay
            id = Array(#"{"userID": "signer-\#(random.next())@example.com"}"#.utf8)
            master = Self.scalar(&random)
            keys = try suite.dvsKeyPair(z: Self.scalar(&random))
            identity = try suite.dvsIdentity(id: id, publicKey: keys.publicKey)
            serverSecret = try suite.prepareServerSecret(try suite.serverSecretShare(master: master))
            pin = Int(random.next() % 10000)
        }

        static func scalar(_ random: inout SeededRandom) -> [UInt8] {
            SecretScalar<C>.random(using: &random).bytes
        }

        func token() throws -> [UInt8] {
            let blinded = try suite.dvsBlind(try suite.clientSecretShare(master: master, id: identity), z: keys.z, field: "CS")
            return try suite.extractPIN(clientSecret: blinded, id: identity, pin: pin)
        }

        func permit(date: Int) throws -> [UInt8] {
            try suite.dvsBlind(try suite.timePermitShare(master: master, id: identity, date: date), z: keys.z, field: "TP")
        }

        func sign(_ message: [UInt8], time: Int, pin: Int? = nil, date: Int = 0, _ random: inout SeededRandom) throws -> DVSSignatureBytes {
            try suite.dvsSign(
                identity: identity, token: try token(), pin: pin ?? self.pin, message: message, time: time,
                timePermit: date > 0 ? try permit(date: date) : nil, date: date,
                x: SecretScalar.random(using: &random))
        }

        /// The verdict with Pa's lines computed on the fly, checked equal to the verdict through
        /// the cache of prepared Pa lines (the first call prepares, later ones find them), and
        /// the login-token signer's verdict: every test below is an equivalence test too.
        func verify(_ signature: DVSSignatureBytes, message: [UInt8], publicKey: [UInt8]? = nil, date: Int = 0) -> ServerVerification {
            let key = publicKey ?? keys.publicKey
            let live = suite.dvsVerify(id: id, publicKey: key, date: date, serverSecret: serverSecret, message: message, signature: signature)
            // A rejection costs a PIN-error search each time: then once (Pa's lines are
            // usually in the cache already, from the test's first, accepted signature).
            for round in 0..<(live.accepted ? 2 : 1) {
                let cached = suite.dvsVerify(
                    id: id, publicKey: key, date: date, serverSecret: serverSecret, message: message, signature: signature,
                    signer: .blindedToken, cachingPublicKey: true)
                #expect(cached == live, "\(C.name): cached Pa lines (round \(round)) gave \(cached), live \(live); \(replay)")
            }
            for caching in live.accepted ? [false, true] : [] {
                let other = suite.dvsVerify(
                    id: id, publicKey: key, date: date, serverSecret: serverSecret, message: message, signature: signature,
                    signer: .loginTokenAndKey, cachingPublicKey: caching)
                #expect(other.result == live.result, "\(C.name): the login-token signer's verdict (caching \(caching)); \(replay)")
            }
            return live
        }
    }

    static func message(_ random: inout SeededRandom) -> [UInt8] {
        (0..<Int(random.next() % 65)).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    @Test(arguments: CurveID.allCases)
    func signaturesOnRandomMessagesVerify(curve: CurveID) throws {
        if let error = curve.run(Generic(body: .signAndVerify)) { throw error }
    }

    static func signAndVerify<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let signer = try Signer<C>(&random)
        for round in 0..<3 {
            let message = Self.message(&random)
            let date = round == 2 ? 20_000 + Int(random.next() % 400) : 0
            let time = 1_795_000_000 + Int(random.next() % 1_000_000)
            let signature = try signer.sign(message, time: time, date: date, &random)
            #expect(signature.ut != nil || date == 0, "\(random.replay)")
            let verdict = signer.verify(signature, message: message, date: date)
            #expect(verdict.accepted && verdict.pinError == 0, "\(C.name) round \(round), \(random.replay): \(verdict)")
        }
    }

    @Test(arguments: CurveID.allCases)
    func aChangedMessagePaOrTimeIsRefused(curve: CurveID) throws {
        if let error = curve.run(Generic(body: .changes)) { throw error }
    }

    static func changes<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let signer = try Signer<C>(&random)
        var message = Self.message(&random) + [0]
        let time = 1_795_000_000 + Int(random.next() % 1_000_000)
        let signature = try signer.sign(message, time: time, &random)
        #expect(signer.verify(signature, message: message).accepted, "\(random.replay)")

        var changed = message
        changed[Int(random.next() % UInt64(changed.count))] ^= 1 << UInt8(random.next() % 8)
        let refusedMessage = signer.verify(signature, message: changed)
        #expect(refusedMessage.result == .rejected && refusedMessage.pinError == 0, "changed message, \(random.replay)")
        message.removeLast()
        #expect(signer.verify(signature, message: message).result == .rejected, "shortened message, \(random.replay)")

        let other = try signer.suite.dvsKeyPair(z: Signer<C>.scalar(&random))
        let refusedKey = signer.verify(signature, message: message + [0], publicKey: other.publicKey)
        #expect(refusedKey.result == .rejected && refusedKey.pinError == 0, "another Pa, \(random.replay)")

        var later = signature
        later.time += 1
        #expect(signer.verify(later, message: message + [0]).result == .rejected, "another time, \(random.replay)")
        var swapped = signature
        swapped.u = signature.v
        swapped.v = signature.u
        #expect(signer.verify(swapped, message: message + [0]).result == .rejected, "U and V swapped, \(random.replay)")
    }

    @Test(arguments: CurveID.allCases)
    func aWrongPINGivesThePINError(curve: CurveID) throws {
        if let error = curve.run(Generic(body: .wrongPIN)) { throw error }
    }

    static func wrongPIN<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let signer = try Signer<C>(&random)
        let entered = (signer.pin + 1 + Int(random.next() % 9998)) % 10000
        let message = Self.message(&random)
        let signature = try signer.sign(message, time: 1_795_000_000, pin: entered, &random)
        let verdict = signer.verify(signature, message: message)
        #expect(verdict.result == .rejected, "\(random.replay)")
        #expect(verdict.pinError == entered - signer.pin, "registered \(signer.pin), entered \(entered), \(random.replay)")
    }

    @Test(arguments: CurveID.allCases)
    func badEncodingsAreTypedErrors(curve: CurveID) throws {
        if let error = curve.run(Generic(body: .badEncodings)) { throw error }
    }

    static func badEncodings<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let signer = try Signer<C>(&random)
        let suite = signer.suite
        let message = Self.message(&random)
        let signature = try signer.sign(message, time: 1_795_000_000, &random)

        var offCurve = signer.keys.publicKey
        offCurve[offCurve.count - 1] ^= 1
        let outside = PointEncoding<C>.encode(Self.twistPointOutsideG2(C.self))
        let kept = signer.serverSecret.publicKeyLines.count
        for (bad, reason) in [(offCurve, "off the twist"), (outside, "outside G2"), (Array(offCurve.dropLast()), "short")] {
            #expect(signer.verify(signature, message: message, publicKey: bad).result == .pointDecodingFailed, "Pa \(reason)")
            #expect(signer.serverSecret.publicKeyLines.count == kept, "a Pa \(reason) entered the cache of prepared lines")
            #expect(throws: MPinError.self, "dvsIdentity with a Pa \(reason)") { try suite.dvsIdentity(id: signer.id, publicKey: bad) }
        }
        #expect(throws: MPinError.invalidPoint(field: "Pa", reason: .notInSubgroup)) {
            try suite.dvsIdentity(id: signer.id, publicKey: outside)
        }

        var badU = signature
        badU.u[0] = 0x02
        #expect(signer.verify(badU, message: message).result == .pointDecodingFailed)
        var badV = signature
        badV.v = [0x04] + [UInt8](repeating: 0, count: suite.g1ByteCount - 1)
        #expect(signer.verify(badV, message: message).result == .pointDecodingFailed)
        // With a date the verifier needs UT; a signature without one does not decode.
        #expect(signer.verify(signature, message: message, date: 20_000).result == .pointDecodingFailed)
        var badTime = signature
        badTime.time = 0
        #expect(signer.verify(badTime, message: message).result == .rejected)

        #expect(throws: MPinError.invalidScalar(field: "z")) {
            try suite.dvsKeyPair(z: [UInt8](repeating: 0, count: suite.scalarByteCount))
        }
        #expect(throws: MPinError.invalidScalar(field: "z")) {
            try suite.dvsBlind(signer.keys.publicKey, z: C.order.bytes(count: suite.scalarByteCount), field: "CS")
        }
        #expect(throws: MPinError.invalidTime) {
            try suite.dvsSign(identity: signer.identity, token: try signer.token(), pin: 1, message: [], time: 0, timePermit: nil, date: 0)
        }
        #expect(throws: MPinError.invalidPIN) {
            try suite.dvsSign(identity: signer.identity, token: try signer.token(), pin: 10000, message: [], time: 1, timePermit: nil, date: 0)
        }
    }

    @Test(arguments: CurveID.allCases)
    func aFreshKeyPairIsConsistentAndWipes(curve: CurveID) throws {
        let suite = curve.suite
        var keys = suite.dvsKeyPair()
        #expect(try suite.dvsKeyPair(z: keys.z).publicKey == keys.publicKey)
        try suite.validateG2(keys.publicKey, field: "Pa")
        keys.wipe()
        #expect(keys.z.allSatisfy { $0 == 0 })
    }

    /// A point on the twist outside G2 (both twists have a cofactor > 1).
    static func twistPointOutsideG2<C: PairingCurve>(_: C.Type) -> G2Point<C> {
        var k = 0
        while true {
            let x = Fp2<C.Field>(Fp(2), Fp(k + 1))
            if let y = (x.squared * x + C.g2B).squareRoot {
                let point = G2Point<C>(x: x, y: y)
                if point.isOnCurve && !point.isInSubgroup { return point }
            }
            k += 1
        }
    }

    /// Runs one of the generic test bodies on the curve's concrete type.
    struct Generic: CurveOperation {
        enum Body { case signAndVerify, changes, wrongPIN, badEncodings }
        let body: Body
        func run<C: PairingCurve>(on curve: C.Type) -> (any Error)? {
            do {
                switch body {
                case .signAndVerify: try DVSTests.signAndVerify(curve)
                case .changes: try DVSTests.changes(curve)
                case .wrongPIN: try DVSTests.wrongPIN(curve)
                case .badEncodings: try DVSTests.badEncodings(curve)
                }
            } catch { return error }
            return nil
        }
    }
}
