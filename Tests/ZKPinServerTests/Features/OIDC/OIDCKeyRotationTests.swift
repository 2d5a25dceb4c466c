import Foundation
import Testing

@testable import ZKPinServer

/// `admin keys rotate`: a running server signs with the new key at once and keeps the old one in
/// its JWKS until the tokens it signed have expired.
@Suite struct OIDCKeyRotationTests {
    static func kid(_ token: String) throws -> String {
        var header = String(token.split(separator: ".")[0]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while header.count % 4 != 0 { header += "=" }
        let object = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: header))) as? [String: Any]
        return try #require(object?["kid"] as? String)
    }

    @Test func rotateKeepsTheOldKeyPublishedUntilItsTokensExpired() async throws {
        let h = try await Harness.make()
        let (client, secret) = try await OIDCFlow.addClient(h)
        let secretValue = try #require(secret)
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            let user = try await TestUser.register(t, email: "rot@example.com", pin: 42, outbox: h.outbox)
            let (done, cookie) = try await flow.signIn(page: try await t.get(OIDCFlow.authorizePath(client: client.id)), user: user)
            func token(_ code: String) async throws -> String {
                let r = try await flow.token(
                    ["grant_type": "authorization_code", "code": code, "redirect_uri": OIDCFlow.callback],
                    basic: (client.id, secretValue))
                #expect(r.status == 200, "\(r.text)")
                return try r.json(TokenResponse.self).id_token
            }
            let old = try await token(try #require(OIDCFlow.redirectItems(done)["code"]))
            let before = try await t.get("/oauth/jwks").json(JWKSet.self)
            #expect(before.keys.filter { $0.alg == "ES256" }.map(\.kid) == [try Self.kid(old)])
            let oldRSA = try #require(before.keys.first { $0.alg == "RS256" }?.kid)

            let (retired, current) = try SigningKeys.rotate(dataDirectory: h.dir, now: h.clock.now)
            #expect(retired == (try Self.kid(old)) && current != retired)
            let during = try await t.get("/oauth/jwks")
            let duringKeys = try during.json(JWKSet.self).keys
            #expect(duringKeys.filter { $0.alg == "ES256" }.map(\.kid) == [current, try Self.kid(old)])
            // The RS256 key is rotated too, the old one published alongside.
            #expect(duringKeys.filter { $0.alg == "RS256" }.count == 2 && duringKeys.contains { $0.kid == oldRSA })
            // The running server signs with the new key; both tokens verify against the JWKS.
            let quick = try await t.get(OIDCFlow.authorizePath(client: client.id), headers: [("Cookie", cookie)])
            let new = try await token(try #require(OIDCFlow.redirectItems(quick)["code"]))
            #expect(try Self.kid(new) == current)
            for idToken in [old, new] {
                _ = try PyJWT.verify(jwks: during.text, token: idToken, issuer: "http://127.0.0.1:8080", audience: client.id, nonce: "n-1")
            }
            #expect(
                try SigningKeys.list(dataDirectory: h.dir, now: h.clock.now).filter { $0.algorithm == "ES256" }.map(\.kid)
                    == [current, try Self.kid(old)])

            // An hour later the retired key is gone from the JWKS, and a second rotation deletes it.
            h.clock.advance(KeyRing.publishedAfterRetirement)
            #expect(try await t.get("/oauth/jwks").json(JWKSet.self).keys.filter { $0.alg == "ES256" }.map(\.kid) == [current])
            #expect(try await t.get("/oauth/jwks").json(JWKSet.self).keys.count == 2)
            _ = try SigningKeys.rotate(dataDirectory: h.dir, now: h.clock.now)
            #expect(KeyRing.retiredFiles(h.dir).count == 1)
        }
        // The command line does the same, and names every key it rotated with its file, RS256
        // too, and the files to copy (issue 28, finding 5).
        let run = try await AdminCommandTests.admin(["keys", "rotate", "--data", h.dir])
        #expect(run.status == 0, "\(run.err)")
        let current = try SigningKeys.list(dataDirectory: h.dir, now: Int(Date().timeIntervalSince1970)).filter { $0.status.hasPrefix("current") }
        #expect(Set(current.map(\.algorithm)) == ["ES256", "RS256"])
        for key in current {
            #expect(run.out.contains("new \(key.algorithm) signing key \(key.kid) in oidc-\(key.algorithm.lowercased()).key"), "\(run.out)")
        }
        #expect(run.out.contains("oidc-es256*.key and oidc-rs256*.key"), "\(run.out)")
        let list = try await AdminCommandTests.admin(["keys", "list", "--data", h.dir])
        #expect(list.out.contains("current (signs)") && list.out.contains("retired"))
        for path in [h.dir + "/" + SigningKey.fileName, h.dir + "/oidc-rs256.key"] + KeyRing.retiredFiles(h.dir).map(\.path)
            + KeyRing.retiredFiles(h.dir, .rs256).map(\.path)
        {
            #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        }
    }
}
