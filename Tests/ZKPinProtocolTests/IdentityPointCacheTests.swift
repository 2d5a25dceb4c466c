import Testing
import ZKPinMath
import ZKPinProtocol
import ZKPinTestSupport

/// The server keeps each identity's HID (and per-day HTID) with its prepared secret: a login
/// verified with the points from the cache gets the verdict and PIN error of one verified with
/// an empty cache, on both curves, with and without time permits, across days. The odd
/// multiples kept with them give the verdict and E of the GLV multiplication they replace.
struct IdentityPointCacheTests {
    @Test func keptMultiplesGiveThePlainVerification() throws {
        try checkMultiples(BN254CX.self)
        try checkMultiples(BLS12_381.self)
    }

    func checkMultiples<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let deployment = try BatchVerificationTests.Deployment<C>(random: &random)
        for (n, entered) in [(0, 4321), (1, 1111), (2, 4321), (3, 4320)] {
            let login = deployment.login(n, pin: 4321, entered: entered, random: &random)
            let hid = MPinHash<C>.hashToG1(id: login.id)
            var check = MPin<C>.LoginCheck(
                hid: hid, u: try PointEncoding<C>.decodeG1(login.u), v: try PointEncoding<C>.decodeG1(login.v), y: BigInt(bytes: login.y))
            let plain = check.verify(serverSecret: deployment.preparedSecret)
            check.baseMultiples = G1OddMultiples(hid)
            let kept = check.verify(serverSecret: deployment.preparedSecret)
            #expect(plain.accepted == (entered == 4321), "\(C.self) entered \(entered): \(random.replay)")
            #expect(kept.accepted == plain.accepted && kept.e == plain.e, "\(C.self) entered \(entered): \(random.replay)")
        }
    }

    @Test func cachedPointsGiveTheSameVerdicts() throws {
        try check(BN254CX.self)
        try check(BLS12_381.self)
    }

    func check<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let deployment = try BatchVerificationTests.Deployment<C>(random: &random)
        let suite = deployment.suite
        for round in 0..<3 {
            for (day, permitDay) in [(0, 0), (20_000, 20_000), (20_001, 20_001), (20_001, 20_000)] {
                let entered = round == 1 ? 1111 : 4321
                let login = deployment.login(round % 2, pin: 4321, entered: entered, permitDate: permitDay, serverDate: day, random: &random)
                // A prepared secret of its own has an empty cache: the simple path.
                let fresh = try suite.prepareServerSecret(deployment.serverSecret.bytes)
                let expected = suite.serverVerifyBatch([login], serverSecret: fresh)[0]
                let cached = suite.serverVerifyBatch([login], serverSecret: deployment.serverSecret)[0]
                let again = suite.serverVerifyBatch([login], serverSecret: deployment.serverSecret)[0]
                #expect(cached.result == expected.result && cached.pinError == expected.pinError, "\(C.self) day \(day): \(random.replay)")
                #expect(again.result == expected.result && again.pinError == expected.pinError, "\(C.self) day \(day): \(random.replay)")
                // The right PIN with the permit of the server's day verifies; a wrong PIN reports its error.
                #expect(expected.accepted == (entered == 4321 && day == permitDay), "\(C.self) day \(day): \(random.replay)")
                if entered != 4321 && day == permitDay { #expect(expected.pinError == 1111 - 4321, "\(random.replay)") }
            }
        }
    }
}
