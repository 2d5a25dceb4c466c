import Foundation
import Testing
import ZKPinTestSupport
import ZKPinWire

@testable import ZKPinProtocol

/// The web client's crypto (web/mpin.js, run by node through web/test-support/cli-equivalence.js)
/// and the Swift client give the same bytes for the same inputs: random identities, master
/// shares, PINs and y (seeded, the seed printed on failure), and the x that Swift's pass 1 drew.
@Suite struct WebClientEquivalenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = root.appendingPathComponent("web/test-support/cli-equivalence.js").path
    static let node: String? = ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A nonzero scalar below r from seeded bytes: 31 random low bytes (r > 2^253 on both
    /// curves), the rest of the curve's scalar width zero.
    static func scalar(_ count: Int, _ random: inout SeededRandom) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count - 31) + (0..<31).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes[count - 1] |= 1
        return bytes
    }

    struct Case {
        var request: [String: Any]
        var expected: [String: String]
        var what: String
    }

    @Test(.enabled(if: node != nil, "node is not installed (tools/test installs Debian's nodejs)"), arguments: CurveID.allCases)
    func sameBytesAsTheSwiftClient(curve: CurveID) throws {
        var random = SeededRandom()
        let seed = random.seed
        let suite = curve.suite
        let name = curve.rawValue
        var cases: [Case] = []
        for round in 0..<6 {
            let id = Array("{\"userID\":\"p\(round)-\(UInt32.random(in: 0...UInt32.max, using: &random))@example.com\"}".utf8)
            let idHex = Hex.encode(id)
            let share1 = try suite.clientSecretShare(master: Self.scalar(suite.scalarByteCount, &random), id: id)
            let share2 = try suite.clientSecretShare(master: Self.scalar(suite.scalarByteCount, &random), id: id)
            let secret = try suite.addG1(share1, share2)
            let pin = Int.random(in: 0...9999, using: &random)
            let token = try suite.extractPIN(clientSecret: secret, id: id, pin: pin)
            let date = round.isMultiple(of: 2) ? 0 : 20_000 + round
            let permit = date > 0 ? try suite.timePermitShare(master: Self.scalar(suite.scalarByteCount, &random), id: id, date: date) : nil
            let state = try suite.clientPass1(id: id, token: token, pin: pin, timePermit: permit, date: date)
            let xHex = Hex.encode(state.x), secHex = Hex.encode(state.sec)
            let y = Self.scalar(suite.scalarByteCount, &random)
            let v = try suite.clientPass2(state.copyReusingX(), y: y)
            cases.append(Case(request: ["op": "hashID", "args": ["idHex": idHex]], expected: ["": Hex.encode(suite.hashID(id))], what: "HASH_ID"))
            cases.append(
                Case(
                    request: ["op": "addG1", "args": ["aHex": Hex.encode(share1), "bHex": Hex.encode(share2)]],
                    expected: ["": Hex.encode(secret)], what: "CS1 + CS2"))
            cases.append(
                Case(
                    request: ["op": "extractPIN", "args": ["idHex": idHex, "pin": pin, "clientSecretHex": Hex.encode(secret)]],
                    expected: ["": Hex.encode(token)], what: "the token"))
            var pass1: [String: Any] = ["idHex": idHex, "tokenHex": Hex.encode(token), "pin": pin, "xHex": xHex]
            if let permit { pass1["date"] = date; pass1["timePermitHex"] = Hex.encode(permit) }
            var expected = ["U": Hex.encode(state.u), "SEC": secHex]
            if let ut = state.ut { expected["UT"] = Hex.encode(ut) }
            cases.append(Case(request: ["op": "clientPass1", "args": pass1], expected: expected, what: "pass 1"))
            cases.append(
                Case(
                    request: ["op": "clientPass2", "args": ["xHex": xHex, "yHex": Hex.encode(y), "secHex": secHex]],
                    expected: ["": Hex.encode(v)], what: "pass 2"))
        }
        try Self.compareWithNode(cases, curve: name, seed: seed)
    }

    /// DVS (spec section 4.1): the same z gives the same Pa, the same z·CS and token, and the
    /// same x, time and message the same U, y and V in both implementations.
    @Test(.enabled(if: node != nil, "node is not installed (tools/test installs Debian's nodejs)"), arguments: CurveID.allCases)
    func sameDVSBytesAsTheSwiftClient(curve: CurveID) throws {
        var random = SeededRandom()
        let seed = random.seed
        let suite = curve.suite
        let name = curve.rawValue
        var cases: [Case] = []
        for round in 0..<4 {
            let id = Array("{\"userID\":\"s\(round)-\(UInt32.random(in: 0...UInt32.max, using: &random))@example.com\"}".utf8)
            let z = Self.scalar(suite.scalarByteCount, &random)
            let keys = try suite.dvsKeyPair(z: z)
            let identity = try suite.dvsIdentity(id: id, publicKey: keys.publicKey)
            let secret = try suite.clientSecretShare(master: Self.scalar(suite.scalarByteCount, &random), id: identity)
            let blinded = try suite.dvsBlind(secret, z: z, field: "CS")
            let pin = Int.random(in: 0...9999, using: &random)
            let token = try suite.extractPIN(clientSecret: blinded, id: identity, pin: pin)
            let message = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let time = Int.random(in: 1...Int(UInt32.max), using: &random)
            let x = Self.scalar(suite.scalarByteCount, &random)
            let signature = try suite.dvsSign(
                identity: identity, token: token, pin: pin, message: message, time: time, timePermit: nil, date: 0, x: x)
            cases.append(
                Case(
                    request: ["op": "dvsKeyPair", "args": ["zHex": Hex.encode(z)]],
                    expected: ["paHex": Hex.encode(keys.publicKey)], what: "Pa"))
            cases.append(
                Case(
                    request: ["op": "dvsClientSecret", "args": ["zHex": Hex.encode(z), "clientSecretHex": Hex.encode(secret)]],
                    expected: ["": Hex.encode(blinded)], what: "z·CS"))
            cases.append(
                Case(
                    request: ["op": "extractPIN", "args": ["idHex": Hex.encode(identity), "pin": pin, "clientSecretHex": Hex.encode(blinded)]],
                    expected: ["": Hex.encode(token)], what: "the token of ID'"))
            let args: [String: Any] = [
                "idPaHex": Hex.encode(identity), "tokenHex": Hex.encode(token), "pin": pin, "xHex": Hex.encode(x), "time": time,
                "messageHex": Hex.encode(message)
            ]
            cases.append(
                Case(
                    request: ["op": "dvsSign", "args": args],
                    expected: ["U": Hex.encode(signature.u), "V": Hex.encode(signature.v)], what: "the signature"))
        }
        try Self.compareWithNode(cases, curve: name, seed: seed)
    }

    /// Runs the cases through node and expects every answer to hold the Swift bytes.
    static func compareWithNode(_ cases: [Case], curve name: String, seed: UInt64) throws {
        let requests = try cases.enumerated().map { index, c -> String in
            var r = c.request
            r["id"] = index
            r["curve"] = name
            return String(decoding: try JSONSerialization.data(withJSONObject: r), as: UTF8.self)
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("zkpin-equivalence-\(UUID().uuidString).jsonl")
        try (requests.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try ProcessRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$0\" \"$1\" < \"$2\"", Self.node!, Self.script, input.path])
        #expect(run.status == 0, "node failed: \(run.err)")
        let answers = run.out.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        #expect(answers.count == cases.count, "seed \(seed): \(answers.count) answers for \(cases.count) requests; stderr: \(run.err)")
        for (index, c) in cases.enumerated() where index < answers.count {
            let answer = answers[index]
            #expect(answer["ok"] as? Bool == true, "seed \(seed), \(name) \(c.what): \(answer["error"] ?? "no answer")")
            for (key, value) in c.expected {
                let got: String?
                if key.isEmpty {
                    got = answer["result"] as? String
                } else {
                    got = (answer["result"] as? [String: Any])?[key] as? String
                }
                #expect(got == value, "seed \(seed), \(name) \(c.what) \(key): JavaScript \(got ?? "nil"), Swift \(value)")
            }
        }
    }
}
