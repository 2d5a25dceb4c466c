import Testing
import ZKPinMath
import ZKPinProtocol

/// The byte-level M-Pin flow on both curves: shares, token, login, wrong PIN, permits.
struct SuiteTests {
    struct Deployment {
        let suite: any MPinSuite
        let master1: [UInt8], master2: [UInt8]
        let serverSecret: PreparedServerSecret
        let id = Array(#"{"userID": "alice@example.com", "salt": "00"}"#.utf8)

        init(_ curve: CurveID) throws {
            suite = curve.suite
            master1 = suite.randomScalar()
            master2 = suite.randomScalar()
            let ss = try suite.addG2(try suite.serverSecretShare(master: master1), try suite.serverSecretShare(master: master2))
            serverSecret = try suite.prepareServerSecret(ss)
        }

        func token(pin: Int) throws -> [UInt8] {
            let cs = try suite.addG1(
                try suite.clientSecretShare(master: master1, id: id),
                try suite.clientSecretShare(master: master2, id: id))
            return try suite.extractPIN(clientSecret: cs, id: id, pin: pin)
        }

        func permit(date: Int) throws -> [UInt8] {
            try suite.addG1(
                try suite.timePermitShare(master: master1, id: id, date: date),
                try suite.timePermitShare(master: master2, id: id, date: date))
        }

        func login(token: [UInt8], pin: Int, permitDate: Int = 0, serverDate: Int = 0) throws -> ServerVerification {
            let permit = permitDate > 0 ? try self.permit(date: permitDate) : nil
            let state = try suite.clientPass1(id: id, token: token, pin: pin, timePermit: permit, date: permitDate)
            let y = suite.randomScalar()
            let v = try suite.clientPass2(state, y: y)
            return suite.serverVerify(id: id, date: serverDate, serverSecret: serverSecret, u: state.u, ut: state.ut, v: v, y: y)
        }
    }

    @Test(arguments: CurveID.allCases)
    func rightPINIsAcceptedWrongPINGivesThePINError(curve: CurveID) throws {
        let deployment = try Deployment(curve)
        let token = try deployment.token(pin: 4321)
        #expect(try deployment.login(token: token, pin: 4321) == ServerVerification(result: .accepted, pinError: 0))
        #expect(try deployment.login(token: token, pin: 4322) == ServerVerification(result: .rejected, pinError: 1))
        #expect(try deployment.login(token: token, pin: 0) == ServerVerification(result: .rejected, pinError: -4321))
        #expect(try deployment.login(token: token, pin: 9999) == ServerVerification(result: .rejected, pinError: 5678))
    }

    /// The identity cache holds at most the entries it was given (the server's `identity-cache`):
    /// logins of more identities than that still verify, and the cache never grows past it.
    @Test(arguments: CurveID.allCases)
    func theIdentityCacheKeepsNoMoreThanItsSize(curve: CurveID) throws {
        let deployment = try Deployment(curve)
        #expect(deployment.serverSecret.identityCacheEntries == PreparedServerSecret.defaultIdentityCacheEntries)
        let small = try deployment.suite.prepareServerSecret(deployment.serverSecret.bytes, identityCacheEntries: 2)
        #expect(small.identityCacheEntries == 2)
        let suite = deployment.suite
        for index in 0..<5 {
            let id = Array("person\(index)@example.com".utf8)
            let cs = try suite.addG1(
                try suite.clientSecretShare(master: deployment.master1, id: id),
                try suite.clientSecretShare(master: deployment.master2, id: id))
            let token = try suite.extractPIN(clientSecret: cs, id: id, pin: 1234)
            for pin in [1234, 1235] {
                let state = try suite.clientPass1(id: id, token: token, pin: pin, timePermit: nil, date: 0)
                let y = suite.randomScalar()
                let v = try suite.clientPass2(state, y: y)
                let result = suite.serverVerify(id: id, date: 0, serverSecret: small, u: state.u, ut: nil, v: v, y: y)
                let expected =
                    pin == 1234 ? ServerVerification(result: .accepted, pinError: 0) : ServerVerification(result: .rejected, pinError: 1)
                #expect(result == expected, "\(id) with PIN \(pin)")
            }
            #expect(small.identityCacheCount <= 2, "after \(index + 1) identities: \(small.identityCacheCount) kept")
        }
        #expect(small.identityCacheCount >= 1)
    }

    @Test(arguments: CurveID.allCases)
    func changingThePINGivesTheNewPINsToken(curve: CurveID) throws {
        let deployment = try Deployment(curve)
        let old = try deployment.token(pin: 4321)
        let changed = try deployment.suite.changePIN(token: old, id: deployment.id, oldPIN: 4321, newPIN: 905)
        #expect(changed == (try deployment.token(pin: 905)))
        #expect(try deployment.login(token: changed, pin: 905).accepted)
        // The old PIN is now a genuine wrong PIN (a PIN error, not an invalid token).
        #expect(try deployment.login(token: changed, pin: 4321) == ServerVerification(result: .rejected, pinError: 4321 - 905))
        #expect(throws: MPinError.invalidPIN) {
            try deployment.suite.changePIN(token: old, id: deployment.id, oldPIN: 4321, newPIN: 10000)
        }
    }

    @Test(arguments: CurveID.allCases)
    func timePermits(curve: CurveID) throws {
        let deployment = try Deployment(curve)
        let token = try deployment.token(pin: 7)
        #expect(try deployment.login(token: token, pin: 7, permitDate: 20_500, serverDate: 20_500).accepted)
        // An expired permit is not a wrong PIN: PIN error 0, so it never counts towards a block.
        #expect(
            try deployment.login(token: token, pin: 7, permitDate: 20_499, serverDate: 20_500)
                == ServerVerification(result: .rejected, pinError: 0))
        // The server decides the mode: a permit-less login is refused when permits are on.
        let state = try deployment.suite.clientPass1(id: deployment.id, token: token, pin: 7, timePermit: nil, date: 0)
        let y = deployment.suite.randomScalar()
        let v = try deployment.suite.clientPass2(state, y: y)
        let verdict = deployment.suite.serverVerify(
            id: deployment.id, date: 20_500, serverSecret: deployment.serverSecret,
            u: state.u, ut: state.ut, v: v, y: y)
        #expect(!verdict.accepted)
    }

    @Test(arguments: CurveID.allCases)
    func randomValuesAreNotAGenuineTokenAndNeverDecodeFailuresCrash(curve: CurveID) throws {
        let deployment = try Deployment(curve)
        let suite = deployment.suite
        // Random valid points: rejected with PIN error 0.
        let u = try suite.clientSecretShare(master: suite.randomScalar(), id: Array("x".utf8))
        let v = try suite.clientSecretShare(master: suite.randomScalar(), id: Array("y".utf8))
        let y = suite.randomScalar()
        #expect(
            suite.serverVerify(id: deployment.id, date: 0, serverSecret: deployment.serverSecret, u: u, ut: nil, v: v, y: y)
                == ServerVerification(result: .rejected, pinError: 0))
        // Garbage: -14, never a trap.
        for garbage in [[], [0x04], [UInt8](repeating: 0xff, count: suite.g1ByteCount), Array(u.dropLast())] {
            #expect(
                suite.serverVerify(
                    id: deployment.id, date: 0, serverSecret: deployment.serverSecret,
                    u: garbage, ut: nil, v: v, y: y
                ).result == .pointDecodingFailed)
        }
        // A zero or oversized challenge is refused.
        #expect(
            suite.serverVerify(
                id: deployment.id, date: 0, serverSecret: deployment.serverSecret, u: u, ut: nil, v: v,
                y: [UInt8](repeating: 0, count: suite.scalarByteCount)
            ).result == .rejected)
    }

    @Test(arguments: CurveID.allCases)
    func passTwoWipesTheRandomAndRunsOnce(curve: CurveID) throws {
        let deployment = try Deployment(curve)
        let token = try deployment.token(pin: 1111)
        let state = try deployment.suite.clientPass1(id: deployment.id, token: token, pin: 1111, timePermit: nil, date: 0)
        _ = try deployment.suite.clientPass2(state, y: deployment.suite.randomScalar())
        #expect(throws: MPinError.self) { try deployment.suite.clientPass2(state, y: deployment.suite.randomScalar()) }
    }

    @Test(arguments: CurveID.allCases)
    func sharesFromTheHashedIDEqualSharesFromTheID(curve: CurveID) throws {
        let suite = curve.suite
        let master = suite.randomScalar(), id = Array("someone".utf8)
        #expect(try suite.clientSecretShare(master: master, hashedID: suite.hashID(id)) == suite.clientSecretShare(master: master, id: id))
        #expect(
            try suite.timePermitShare(master: master, hashedID: suite.hashID(id), date: 20_000)
                == suite.timePermitShare(master: master, id: id, date: 20_000))
        #expect(throws: MPinError.self) { try suite.clientSecretShare(master: master, hashedID: [1, 2, 3]) }
    }

    @Test func badClientInputIsAnError() throws {
        let suite = CurveID.bn254cx.suite
        #expect(throws: MPinError.invalidPIN) {
            try suite.extractPIN(clientSecret: suite.serverSecretShare(master: suite.randomScalar()), id: [], pin: 10000)
        }
        #expect(throws: MPinError.self) { try suite.addG1([0x04, 0x01], [0x04]) }
        #expect(throws: MPinError.self) { try suite.serverSecretShare(master: [UInt8](repeating: 0, count: 32)) }
        #expect(CurveID(name: "BLS381") == .bls12_381 && CurveID(name: "BN254CX") == .bn254cx && CurveID(name: "p256") == nil)
    }
}
