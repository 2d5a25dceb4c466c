import Crypto
import Foundation
import Testing
import ZKPinTestSupport

@testable import ZKPinServer

/// RFC 8291 message encryption: the appendix's known answer, refusals, and a round trip through
/// tools/push-decrypt (Python `cryptography`, written apart from the Swift code).
@Suite struct WebPushEncryptionTests {
    /// RFC 8291 Appendix A.
    enum Appendix {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
        static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    static func bytes(_ base64url: String) throws -> [UInt8] { try #require(Base64URL.decode(base64url)) }

    @Test func rfc8291AppendixAKnownAnswer() throws {
        let receiver = try WebPushReceiverKeys(p256dh: Appendix.uaPublic, auth: Appendix.auth)
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: try Self.bytes(Appendix.asPrivate))
        #expect(Base64URL.encode(Array(ephemeral.publicKey.x963Representation)) == Appendix.asPublic)
        let body = try WebPushEncryption.encrypt(
            Array(Appendix.plaintext.utf8), for: receiver, salt: try Self.bytes(Appendix.salt), ephemeral: ephemeral)
        #expect(Base64URL.encode(body) == Appendix.body)
    }

    @Test func theHeaderSaysRecordSize4096AndCarriesTheEphemeralKey() throws {
        let receiver = try WebPushReceiverKeys(p256dh: Appendix.uaPublic, auth: Appendix.auth)
        let a = try WebPushEncryption.encrypt(Array("hello".utf8), for: receiver)
        let b = try WebPushEncryption.encrypt(Array("hello".utf8), for: receiver)
        #expect(a.count == 86 + 5 + 1 + 16)
        #expect(Array(a[16..<20]) == [0, 0, 0x10, 0] && a[20] == 65 && a[21] == 0x04)
        // A fresh salt and a fresh key for every message.
        #expect(a[0..<16] != b[0..<16] && a[21..<86] != b[21..<86])
    }

    @Test func aMessageThatDoesNotFitOneBodyIsRefused() throws {
        let receiver = try WebPushReceiverKeys(p256dh: Appendix.uaPublic, auth: Appendix.auth)
        let largest = try WebPushEncryption.encrypt([UInt8](repeating: 7, count: WebPushEncryption.maxPlaintext), for: receiver)
        #expect(largest.count == 4096)
        #expect(throws: WebPushEncryption.Failure.tooLarge(3994)) {
            try WebPushEncryption.encrypt([UInt8](repeating: 7, count: 3994), for: receiver)
        }
    }

    @Test func badReceiverKeysAreClearErrors() throws {
        let point = try Self.bytes(Appendix.uaPublic)
        let auth = try Self.bytes(Appendix.auth)
        #expect(throws: WebPushReceiverKeys.Failure.p256dhLength(64)) { try WebPushReceiverKeys(p256dh: Array(point.dropLast()), auth: auth) }
        // The compressed form of the same point (33 bytes) is not what browsers send.
        #expect(throws: WebPushReceiverKeys.Failure.p256dhLength(33)) {
            try WebPushReceiverKeys(p256dh: [0x02 | (point[64] & 1)] + point[1..<33], auth: auth)
        }
        #expect(throws: WebPushReceiverKeys.Failure.p256dhNotUncompressed(prefix: 0x05)) {
            try WebPushReceiverKeys(p256dh: [0x05] + point.dropFirst(), auth: auth)
        }
        var offCurve = point
        offCurve[64] ^= 1
        #expect(throws: WebPushReceiverKeys.Failure.p256dhNotOnCurve) { try WebPushReceiverKeys(p256dh: offCurve, auth: auth) }
        #expect(throws: WebPushReceiverKeys.Failure.authLength(15)) { try WebPushReceiverKeys(p256dh: point, auth: Array(auth.dropLast())) }
        #expect(throws: WebPushReceiverKeys.Failure.notBase64URL(field: "p256dh")) {
            try WebPushReceiverKeys(p256dh: "BCVx+sr7N/eNg", auth: Appendix.auth)
        }
        #expect(WebPushReceiverKeys.Failure.p256dhNotOnCurve.description == "p256dh is not a point on P-256")
    }

    /// A valid P-256 private scalar from the system's randomness.
    static func randomScalar() -> [UInt8] { Array(P256.Signing.PrivateKey().rawRepresentation) }

    /// A P-256 private key from the seeded stream (retrying the rare scalar out of range).
    static func privateKey(_ random: inout SeededRandom) -> P256.KeyAgreement.PrivateKey {
        while true {
            let scalar = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            if let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: scalar) { return key }
        }
    }

    @Test(.enabled(if: PythonWebPush.available, "needs python3 with cryptography and PyJWT"))
    func pythonDecryptsWhatSwiftEncrypts() throws {
        var random = SeededRandom()
        var cases: [(body: [UInt8], plaintext: [UInt8], key: P256.KeyAgreement.PrivateKey, auth: [UInt8])] = []
        let lengths = [0, 1, 15, 16, 17, 255, WebPushEncryption.maxPlaintext] + (0..<5).map { _ in Int.random(in: 0...3993, using: &random) }
        for (n, length) in lengths.enumerated() {
            let key = Self.privateKey(&random)
            let auth = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            let plaintext = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            let receiver = try WebPushReceiverKeys(p256dh: Array(key.publicKey.x963Representation), auth: auth)
            // The seeded salt and ephemeral key make a failure replayable; the last case takes
            // the production path (fresh ones from the system).
            let body =
                n == lengths.count - 1
                ? try WebPushEncryption.encrypt(plaintext, for: receiver)
                : try WebPushEncryption.encrypt(
                    plaintext, for: receiver, salt: (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &random) },
                    ephemeral: Self.privateKey(&random))
            cases.append((body, plaintext, key, auth))
        }
        // One tampered body: the tool must be able to say no.
        var tampered = cases[3]
        tampered.body[tampered.body.count - 20] ^= 0x40
        cases.append(tampered)

        let request = cases.map {
            [
                "body": Base64URL.encode($0.body), "private_key": Base64URL.encode(Array($0.key.rawRepresentation)),
                "auth": Base64URL.encode($0.auth)
            ]
        }
        let run = try PythonWebPush.run("tools/push-decrypt", input: Array(try JSONSerialization.data(withJSONObject: request)))
        try #require(run.status == 0, "push-decrypt: \(run.err)")
        let answers = String(decoding: run.out, as: UTF8.self).split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: String] ?? [:]
        }
        try #require(answers.count == cases.count, "\(random.replay)")
        for (i, answer) in answers.dropLast().enumerated() {
            // Compared as a Bool: a failure names the case, not thousands of bytes.
            let same = answer["plaintext"].flatMap(Base64URL.decode) == cases[i].plaintext
            #expect(same, "case \(i) (\(cases[i].plaintext.count) bytes): \(answer["error"] ?? "another plaintext"), \(random.replay)")
        }
        #expect(answers.last?["error"]?.contains("does not authenticate") == true, "\(answers.last ?? [:]), \(random.replay)")
    }

    @Test(.enabled(if: PythonWebPush.available, "needs python3 with cryptography and PyJWT"))
    func pythonDecryptsTheAppendixBodyWithTheReceiversKey() throws {
        let request = ["body": Appendix.body, "private_key": Appendix.uaPrivate, "auth": Appendix.auth]
        let run = try PythonWebPush.run("tools/push-decrypt", input: Array(try JSONSerialization.data(withJSONObject: request)))
        #expect(run.status == 0 && String(decoding: run.out, as: UTF8.self) == Appendix.plaintext, "\(run.err)")
    }
}
