import Testing
import ZKPinMath
import ZKPinProtocol
import ZKPinTestSupport

/// Batch verification gives every login exactly the verdict and PIN error of single
/// verification, whatever else is in the batch.
struct BatchVerificationTests {
    /// A deployment on curve C: master shares, a server secret, identities with tokens.
    struct Deployment<C: PairingCurve> {
        typealias Scheme = MPin<C>
        typealias Encoding = PointEncoding<C>
        let suite = MPinCurveSuite<C>()
        let master: SecretScalar<C>
        let serverSecret: PreparedServerSecret
        let preparedSecret: G2Prepared<C>

        init(random: inout SeededRandom) throws {
            master = SecretScalar.random(using: &random)
            let ss = Scheme.serverSecretShare(master: master)
            serverSecret = try suite.prepareServerSecret(Encoding.encode(ss))
            preparedSecret = G2Prepared(ss)
        }

        func id(_ n: Int) -> [UInt8] { Array(#"{"userID": "user\#(n)@example.com"}"#.utf8) }

        /// A login of identity n registered with `pin`, entering `entered`; with a permit of
        /// `permitDate` when the server checks `serverDate` > 0.
        func login(
            _ n: Int, pin: Int, entered: Int, permitDate: Int = 0, serverDate: Int = 0,
            random: inout SeededRandom
        ) -> ServerVerifyInput {
            let id = id(n)
            let a = MPinHash<C>.hashToG1(id: id)
            let token = Scheme.extractPIN(
                clientSecret: Scheme.clientSecretShare(master: master, hashedIDPoint: a),
                pin: pin, hashedIDPoint: a)
            var permit: G1Point<C>? = nil, at: G1Point<C>? = nil
            if serverDate > 0 {
                let hashed = MPinHash<C>.hashID(id)
                permit = Scheme.timePermitShare(master: master, hashedID: hashed, date: permitDate)
                at = MPinHash<C>.timePermitPoint(hashedID: hashed, date: permitDate)
            }
            let x = SecretScalar<C>.random(using: &random), y = SecretScalar<C>.random(using: &random)
            let pass1 = Scheme.clientPass1(x: x, token: token, pin: entered, hashedIDPoint: a, timePermit: permit, timePermitPoint: at)
            return ServerVerifyInput(
                id: id, date: serverDate, u: Encoding.encode(pass1.u), ut: pass1.ut.map { Encoding.encode($0) },
                v: Encoding.encode(Scheme.clientPass2(x: x, y: y, sec: pass1.sec)),
                y: y.bytes)
        }

        /// A random point of E(Fp) (on BLS12-381 almost never in G1).
        func randomCurvePoint(random: inout SeededRandom) -> [UInt8] {
            while true {
                let x = Fp<C.Field>(BigInt.random(in: .zero, C.Field.modulusBig, using: &random))
                if let y = (x.squared * x + C.g1B).squareRoot { return Encoding.encode(G1Point<C>(x: x, y: y)) }
            }
        }

        /// One login of each kind: good, wrong PIN, random U or V, a point outside G1 (or off
        /// the curve), an expired permit, garbage bytes.
        func anyLogin(_ index: Int, random: inout SeededRandom) -> (kind: String, login: ServerVerifyInput) {
            let n = Int(random.next() % 5), pin = Int(random.next() % 10_000)
            switch random.next() % 8 {
            case 0, 1, 2: return ("good", login(n, pin: pin, entered: pin, random: &random))
            case 3: return ("wrong PIN", login(n, pin: pin, entered: (pin + 1 + Int(random.next() % 9998)) % 10_000, random: &random))
            case 4:
                var l = login(n, pin: pin, entered: pin, random: &random)
                let other = login(n + 5, pin: pin, entered: pin, random: &random)
                if random.next() % 2 == 0 { l.u = other.u } else { l.v = other.v }
                return ("random U or V", l)
            case 5:
                var l = login(n, pin: pin, entered: pin, random: &random)
                l.v = randomCurvePoint(random: &random)
                return ("V outside G1", l)
            case 6:
                let day = 20_000 + Int(random.next() % 100)
                let expired = random.next() % 2 == 0
                return (
                    expired ? "expired permit" : "good permit",
                    login(n, pin: pin, entered: pin, permitDate: expired ? day - 1 : day, serverDate: day, random: &random)
                )
            default:
                var l = login(n, pin: pin, entered: pin, random: &random)
                l.u = Array(l.u.dropLast())
                return ("garbage U", l)
            }
        }
    }

    func checkMixes<C: PairingCurve>(_: C.Type, sizes: [Int]) throws {
        var random = SeededRandom()
        let deployment = try Deployment<C>(random: &random)
        for size in sizes {
            let logins = (0..<size).map { deployment.anyLogin($0, random: &random) }
            let batch = deployment.suite.serverVerifyBatch(logins.map(\.login), serverSecret: deployment.serverSecret)
            #expect(batch.count == size)
            for (index, (kind, login)) in logins.enumerated() {
                let single = deployment.suite.serverVerify(
                    id: login.id, date: login.date, serverSecret: deployment.serverSecret,
                    u: login.u, ut: login.ut, v: login.v, y: login.y)
                #expect(batch[index] == single, "\(kind) at \(index) of \(size): batch \(batch[index]), single \(single); \(random.replay)")
                if kind == "good" || kind == "good permit" { #expect(single.accepted, "\(kind); \(random.replay)") }
                if kind == "wrong PIN" { #expect(!single.accepted && single.pinError != 0, "\(random.replay)") }
            }
        }
    }

    @Test func mixesBN() throws { try checkMixes(BN254CX.self, sizes: [1, 2, 3, 5, 17, 64, 300]) }
    @Test func mixesBLS() throws { try checkMixes(BLS12_381.self, sizes: [1, 2, 4, 9, 33, 300]) }

    /// One bad proof among 255 good ones is found at every position, and only it.
    func checkOneBad<C: PairingCurve>(_: C.Type) throws {
        var random = SeededRandom()
        let deployment = try Deployment<C>(random: &random)
        typealias Scheme = MPin<C>
        func check(_ login: ServerVerifyInput) throws -> Scheme.LoginCheck {
            let id = login.id
            return Scheme.LoginCheck(
                hid: MPinHash<C>.hashToG1(id: id), u: try PointEncoding<C>.decodeG1(login.u),
                v: try PointEncoding<C>.decodeG1(login.v), y: BigInt(bytes: login.y))
        }
        var checks = try (0..<256).map { n in try check(deployment.login(n % 7, pin: 1111, entered: 1111, random: &random)) }
        let bad = try check(deployment.login(3, pin: 1111, entered: 1112, random: &random))
        #expect(Scheme.holdingChecks(checks, serverSecret: deployment.preparedSecret).allSatisfy { $0 }, "\(random.replay)")
        for position in 0..<256 {
            let good = checks[position]
            checks[position] = bad
            let holds = Scheme.holdingChecks(checks, serverSecret: deployment.preparedSecret)
            #expect(holds.indices.allSatisfy { holds[$0] == ($0 != position) }, "bad proof at \(position); \(random.replay)")
            checks[position] = good
        }
    }

    @Test func oneBadAmong255BN() throws { try checkOneBad(BN254CX.self) }
    @Test func oneBadAmong255BLS() throws { try checkOneBad(BLS12_381.self) }

    /// A batch test with every check good holds; with one bad check it fails for each of many
    /// coefficient draws (a false accept would need the one draw in 2^64).
    @Test func batchTestItself() throws {
        typealias C = BN254CX
        var random = SeededRandom()
        let deployment = try Deployment<C>(random: &random)
        func check(_ login: ServerVerifyInput) throws -> MPin<C>.LoginCheck {
            MPin<C>.LoginCheck(
                hid: MPinHash<C>.hashToG1(id: login.id), u: try PointEncoding<C>.decodeG1(login.u),
                v: try PointEncoding<C>.decodeG1(login.v), y: BigInt(bytes: login.y))
        }
        var checks = try (0..<8).map { try check(deployment.login($0, pin: 42, entered: 42, random: &random)) }
        #expect(MPin<C>.batchHolds(checks[...], serverSecret: deployment.preparedSecret, using: &random), "\(random.replay)")
        checks[5] = try check(deployment.login(5, pin: 42, entered: 43, random: &random))
        for _ in 0..<20 {
            #expect(!MPin<C>.batchHolds(checks[...], serverSecret: deployment.preparedSecret, using: &random), "\(random.replay)")
        }
    }
}
