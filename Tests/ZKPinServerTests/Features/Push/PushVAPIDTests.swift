import Foundation
import Testing
import ZKPinTestSupport

@testable import ZKPinServer

/// The VAPID key file and header (RFC 8292), the header checked by tools/push-verify-vapid
/// (PyJWT and `cryptography`).
@Suite struct PushVAPIDTests {
    static let subject = "mailto:operator@example.com"

    @Test func theKeyFileIsCreatedPrivateAndReadBack() throws {
        let dir = try TempDir.make()
        let created = try VAPIDKey.loadOrCreate(dataDirectory: dir)
        let path = dir + "/" + VAPIDKey.fileName
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let again = try VAPIDKey.loadOrCreate(dataDirectory: dir)
        #expect(again.publicKey == created.publicKey && created.publicKey.count == 65 && created.publicKey[0] == 4)
        #expect(Base64URL.decode(created.applicationServerKey) == created.publicKey)

        chmod(path, 0o644)
        #expect(throws: SecretFile.Failure.self) { try VAPIDKey.load(path: path, create: false) }
        // Zero is no P-256 private key.
        let zero = dir + "/zero.key"
        try PrivateFile.write(Array((String(repeating: "00", count: 32) + "\n").utf8), to: zero, replace: false)
        #expect(throws: VAPIDKey.Failure.notAKey(zero)) { try VAPIDKey.load(path: zero, create: false) }
    }

    @Test func theAudienceIsTheEndpointsOriginAndTheTokenLastsTwelveHours() throws {
        let key = try VAPIDKey(rawScalar: (1...32).map { UInt8($0) })
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for (endpoint, aud) in [
            ("https://fcm.googleapis.com/fcm/send/abc:def?x=1", "https://fcm.googleapis.com"),
            ("https://FCM.googleapis.com:443/wpush", "https://fcm.googleapis.com"),
            ("https://push.example.net:8443/p/1", "https://push.example.net:8443"),
            ("http://127.0.0.1:8080/push/id", "http://127.0.0.1:8080"),
            ("http://[::1]:9/x", "http://[::1]:9")
        ] {
            let header = try key.authorization(endpoint: endpoint, subject: Self.subject, now: now)
            let token = try #require(header.split(separator: " ").dropFirst().first.map { String($0.dropFirst(2).dropLast()) })
            #expect(header == "vapid t=\(token), k=\(key.applicationServerKey)")
            let parts = token.split(separator: ".").map { Base64URL.decode(String($0)) }
            try #require(parts.count == 3)
            #expect(parts[0].map { String(decoding: $0, as: UTF8.self) } == #"{"typ":"JWT","alg":"ES256"}"#)
            let payload = try #require(parts[1])
            let claims = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
            #expect(claims["aud"] as? String == aud, "\(endpoint)")
            #expect(claims["exp"] as? Int == 1_800_000_000 + 12 * 3600)
            #expect(claims["sub"] as? String == Self.subject)
            // JWS's ECDSA signature is r || s, not DER.
            #expect(parts[2]?.count == 64)
        }
    }

    @Test func badSubjectsAndEndpointsAreClearErrors() throws {
        let key = try VAPIDKey(rawScalar: (1...32).map { UInt8($0) })
        for subject in ["", "mailto:", "operator@example.com", "http://example.com", "https://", "mailto:a b@c"] {
            #expect(throws: VAPIDKey.Failure.badSubject(subject)) {
                try key.authorization(endpoint: "https://fcm.googleapis.com/x", subject: subject)
            }
        }
        _ = try key.authorization(endpoint: "https://fcm.googleapis.com/x", subject: "https://example.com/contact")
        #expect(throws: VAPIDKey.Failure.badEndpoint("ftp://x/y")) { try key.authorization(endpoint: "ftp://x/y", subject: Self.subject) }
    }

    @Test(.enabled(if: PythonWebPush.available, "needs python3 with cryptography and PyJWT"))
    func pyJWTAcceptsTheHeaderAndRefusesItForAnotherOrigin() throws {
        let key = try VAPIDKey.loadOrCreate(dataDirectory: try TempDir.make())
        let now = Date()
        let header = try key.authorization(endpoint: "https://updates.push.services.mozilla.com/wpush/v2/gAAA", subject: Self.subject, now: now)
        let tool = URL(fileURLWithPath: "/usr/bin/env")
        let script = RepositoryRoot.path("tools/push-verify-vapid")
        let run = try ProcessRun.run(tool, ["python3", script, header, "https://updates.push.services.mozilla.com", Self.subject])
        try #require(run.status == 0, "\(run.err)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let claims = try #require(answer["claims"] as? [String: Any])
        #expect(answer["k"] as? String == key.applicationServerKey)
        #expect(claims["exp"] as? Int == Int(now.timeIntervalSince1970) + 12 * 3600)

        let otherOrigin = try ProcessRun.run(tool, ["python3", script, header, "https://fcm.googleapis.com"])
        #expect(otherOrigin.status == 1 && otherOrigin.err.contains("aud"), "\(otherOrigin.err)")
        // Another key's k under this key's token: the signature no longer verifies.
        let other = try VAPIDKey(rawScalar: (1...32).map { UInt8($0) })
        let swapped = header.replacingOccurrences(of: key.applicationServerKey, with: other.applicationServerKey)
        let forged = try ProcessRun.run(tool, ["python3", script, swapped, "https://updates.push.services.mozilla.com"])
        #expect(forged.status == 1 && forged.err.contains("Signature"), "\(forged.err)")
        // A token from the past is refused.
        let old = try key.authorization(endpoint: "https://web.push.apple.com/x", subject: Self.subject, now: now - 13 * 3600)
        let expired = try ProcessRun.run(tool, ["python3", script, old, "https://web.push.apple.com"])
        #expect(expired.status == 1 && expired.err.contains("expired"), "\(expired.err)")
    }
}
