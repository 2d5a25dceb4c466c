import Testing
import ZKPinMath
import ZKPinTestSupport

@testable import ZKPinProtocol

/// Pass 1 keeps the U and UT it validated (on curves whose G1 has a cofactor), and pass 2's
/// verification takes them instead of decoding the same bytes again: the verdicts and PIN errors
/// are those of a prepared secret that kept nothing, a point is taken only for its own bytes and
/// only once, and a point that fails validation is never kept.
struct LoginPointCacheTests {
    @Test func keptPointsGiveTheSameVerdicts() throws {
        try check(BN254CX.self)
        try check(BLS12_381.self)
    }

    func check<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let deployment = try BatchVerificationTests.Deployment<C>(random: &random)
        let suite = deployment.suite
        let kept = deployment.serverSecret.loginPoints
        for (day, permitDay) in [(0, 0), (20_001, 20_001), (20_001, 20_000)] {
            let logins = (0..<4).map { n in
                deployment.login(n, pin: 4321, entered: n == 2 ? 1111 : 4321, permitDate: permitDay, serverDate: day, random: &random)
            }
            for login in logins { try suite.validateLoginPoints(u: login.u, ut: day > 0 ? login.ut : nil, for: deployment.serverSecret) }
            let pointsPerLogin = day > 0 ? 2 : 1
            #expect(kept.count == (C.g1CofactorIsOne ? 0 : 4 * pointsPerLogin), "\(C.self) day \(day): \(random.replay)")
            // A prepared secret of its own keeps nothing: every point is decoded at pass 2.
            let fresh = try suite.prepareServerSecret(deployment.serverSecret.bytes)
            let expected = suite.serverVerifyBatch(logins, serverSecret: fresh)
            let verified = suite.serverVerifyBatch(logins, serverSecret: deployment.serverSecret)
            for (a, b) in zip(verified, expected) {
                #expect(a.result == b.result && a.pinError == b.pinError, "\(C.self) day \(day): \(random.replay)")
            }
            #expect(expected.map(\.accepted) == logins.indices.map { $0 != 2 && day == permitDay }, "\(C.self) day \(day): \(random.replay)")
            // Pass 2 took what pass 1 kept.
            #expect(kept.count == 0, "\(C.self) day \(day): \(random.replay)")
        }
    }

    @Test func aKeptPointServesOnlyItsOwnBytesAndOnlyOnce() throws {
        var random = SeededRandom()
        let deployment = try BatchVerificationTests.Deployment<BLS12_381>(random: &random)
        let suite = deployment.suite, kept = deployment.serverSecret.loginPoints
        let first = deployment.login(0, pin: 1234, entered: 1234, random: &random)
        let second = deployment.login(1, pin: 1234, entered: 1234, random: &random)
        try suite.validateLoginPoints(u: first.u, ut: nil, for: deployment.serverSecret)
        // Another login's U is decoded; the kept one stays for its own login.
        #expect(suite.serverVerifyBatch([second], serverSecret: deployment.serverSecret)[0].accepted, "\(random.replay)")
        #expect(kept.count == 1)
        #expect(suite.serverVerifyBatch([first], serverSecret: deployment.serverSecret)[0].accepted, "\(random.replay)")
        #expect(kept.count == 0)
        // Verified again (the previous day's permit is tried this way), the bytes are decoded anew.
        #expect(suite.serverVerifyBatch([first], serverSecret: deployment.serverSecret)[0].accepted, "\(random.replay)")
    }

    @Test func aPointOutsideG1IsRefusedAndNeverKept() throws {
        var random = SeededRandom()
        let deployment = try BatchVerificationTests.Deployment<BLS12_381>(random: &random)
        let suite = deployment.suite
        // y^2 = x^3 + 4 has points outside G1 (cofactor > 1): the first one from x = 5 up.
        var x = Fp<BLS12_381Field>(5)
        var outside: G1Point<BLS12_381>?
        while outside == nil {
            if let y = (x.squared * x + BLS12_381.g1B).squareRoot { outside = G1Point<BLS12_381>(x: x, y: y) }
            x = x + .one
        }
        let bytes = PointEncoding<BLS12_381>.encode(try #require(outside))
        #expect(throws: MPinError.invalidPoint(field: "U", reason: .notInSubgroup)) {
            try suite.validateLoginPoints(u: bytes, ut: nil, for: deployment.serverSecret)
        }
        #expect(deployment.serverSecret.loginPoints.count == 0)
        // A valid U with an invalid UT keeps neither.
        let login = deployment.login(0, pin: 1234, entered: 1234, random: &random)
        #expect(throws: MPinError.invalidPoint(field: "UT", reason: .notInSubgroup)) {
            try suite.validateLoginPoints(u: login.u, ut: bytes, for: deployment.serverSecret)
        }
        #expect(deployment.serverSecret.loginPoints.count == 0)
        // Pass 2 with that U still decodes it, and refuses it.
        var forged = login
        forged.u = bytes
        #expect(suite.serverVerifyBatch([forged], serverSecret: deployment.serverSecret)[0].result == .pointDecodingFailed, "\(random.replay)")
    }
}
