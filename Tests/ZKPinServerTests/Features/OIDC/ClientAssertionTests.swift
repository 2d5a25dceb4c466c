import Crypto
import Foundation
import Testing

@testable import ZKPinServer

/// private_key_jwt (RFC 7523): a client registered with its public keys signs an assertion
/// instead of sending a secret. The assertions here are signed by hand with swift-crypto (not
/// by the jwt-kit the server verifies with); each refusal is one claim or signature wrong.
@Suite struct ClientAssertionTests {
    struct Key {
        let key = P256.Signing.PrivateKey()
        let kid: String

        var jwk: [String: String] {
            let raw = key.publicKey.rawRepresentation
            return [
                "kty": "EC", "crv": "P-256", "kid": kid, "use": "sig",
                "x": Base64URL.encode(Array(raw.prefix(32))), "y": Base64URL.encode(Array(raw.suffix(32)))
            ]
        }

        /// A compact JWS of `claims` with `header` (ES256 unless it says otherwise).
        func sign(_ claims: [String: Any], alg: String = "ES256") throws -> String {
            let header = try JSONSerialization.data(withJSONObject: ["alg": alg, "typ": "JWT", "kid": kid])
            let body = try JSONSerialization.data(withJSONObject: claims)
            let input = Base64URL.encode(Array(header)) + "." + Base64URL.encode(Array(body))
            let signature = try key.signature(for: Data(input.utf8)).rawRepresentation
            return input + "." + Base64URL.encode(Array(signature))
        }
    }

    static func jwks(_ keys: [[String: String]]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: ["keys": keys]), as: UTF8.self)
    }

    @Test func anAssertionSignedByTheRegisteredKeyGetsATokenOnce() async throws {
        let h = try await Harness.make()
        let key = Key(kid: "desk-1")
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Help desk", redirectURIs: [], postLogoutURIs: [], isPublic: false,
            adminScopes: try #require(AdminScopes.granted("read")), jwks: try Self.jwks([key.jwk]), now: h.clock.now)
        #expect(secret == nil && !client.isPublic && client.authMethod == "private_key_jwt")
        let issuer = OIDCFlow.origin
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            var seq = 0
            func claims(_ change: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
                seq += 1
                var c: [String: Any] = [
                    "iss": client.id, "sub": client.id, "aud": issuer + "/oauth/token", "exp": h.clock.now + 60, "iat": h.clock.now,
                    "jti": "jti-\(seq)"
                ]
                change(&c)
                return c
            }
            func ask(_ assertion: String, type: String = ClientAssertion.type, extra: [String: String] = [:]) async throws -> Reply {
                try await flow.token(
                    ["grant_type": "client_credentials", "client_assertion_type": type, "client_assertion": assertion].merging(extra) { $1 })
            }
            let good = try key.sign(claims())
            let first = try await ask(good)
            #expect(first.status == 200 && first.text.contains("access_token"), "\(first.text)")
            let replay = try await ask(good)
            #expect(replay.status == 401 && replay.text.contains("used already"), "\(replay.text)")
            // The issuer itself is an accepted audience, as a one-element array too.
            #expect(try await ask(try key.sign(claims { $0["aud"] = [issuer] })).status == 200)

            let other = Key(kid: "desk-1")  // same kid, another key
            let refusals: [(String, String)] = [
                ("another key", try other.sign(claims())),
                ("another audience", try key.sign(claims { $0["aud"] = "https://elsewhere.example/token" })),
                ("expired", try key.sign(claims { $0["exp"] = h.clock.now - 120 })),
                ("too long-lived", try key.sign(claims { $0["exp"] = h.clock.now + 7200 })),
                ("not yet valid", try key.sign(claims { $0["nbf"] = h.clock.now + 600 })),
                ("sub is not the client", try key.sign(claims { $0["sub"] = "someone" })),
                ("no jti", try key.sign(claims { $0["jti"] = nil })),
                ("HS256 header", try key.sign(claims(), alg: "HS256")),
                ("not a JWT", "abc.def")
            ]
            for (why, assertion) in refusals {
                let reply = try await ask(assertion)
                #expect(reply.status == 401 && reply.oauthError == "invalid_client", "\(why): \(reply.status) \(reply.text)")
            }
            let wrongType = try await ask(try key.sign(claims()), type: "urn:example:other")
            #expect(wrongType.status == 401, "\(wrongType.text)")
            let mismatched = try await ask(try key.sign(claims()), extra: ["client_id": "zk-other"])
            #expect(mismatched.status == 400, "\(mismatched.text)")
            // No secret to send: Basic credentials are refused for this client.
            let basic = try await flow.token(["grant_type": "client_credentials"], basic: (client.id, "guess"))
            #expect(basic.status == 401 && basic.text.contains("private_key_jwt"), "\(basic.text)")
            // Discovery says so.
            let discovery = try await t.get("/.well-known/openid-configuration").text
            #expect(discovery.contains("private_key_jwt") && discovery.contains("token_endpoint_auth_signing_alg_values_supported"))
        }
    }

    @Test func onlyPublicUsableKeysAreRegistered() async throws {
        let h = try await Harness.make()
        let key = Key(kid: "k1")
        var privateJWK = key.jwk
        privateJWK["d"] = Base64URL.encode(Array(key.key.rawRepresentation))
        var noKid = key.jwk
        noKid["kid"] = nil
        var offCurve = key.jwk
        offCurve["x"] = Base64URL.encode([UInt8](repeating: 7, count: 32))
        let cases: [(String, String)] = [
            ("a private key", try Self.jwks([privateJWK])), ("no kid", try Self.jwks([noKid])),
            ("a point off the curve", try Self.jwks([offCurve])), ("no keys", try Self.jwks([])),
            (
                "a short RSA key",
                try Self.jwks([["kty": "RSA", "kid": "r", "n": Base64URL.encode([UInt8](repeating: 0xC5, count: 128)), "e": "AQAB"]])
            ),
            ("another curve", try Self.jwks([["kty": "EC", "crv": "P-384", "kid": "p", "x": "AA", "y": "AA"]])), ("not JSON", "{")
        ]
        var accepted: [String] = []
        for (why, jwks) in cases {
            do {
                _ = try await ClientRegistry.add(
                    to: h.rp.store, name: "Desk", redirectURIs: [], postLogoutURIs: [], isPublic: false, adminScopes: [AdminScopes.read],
                    jwks: jwks, now: h.clock.now)
                accepted.append(why)
            } catch is ClientRegistry.Invalid {}
        }
        #expect(accepted.isEmpty, "registered although refused: \(accepted)")
        await #expect(throws: ClientRegistry.Invalid.self) {
            _ = try await ClientRegistry.add(
                to: h.rp.store, name: "Desk", redirectURIs: ["https://x.example/cb"], postLogoutURIs: [], isPublic: true,
                jwks: try Self.jwks([key.jwk]), now: h.clock.now)
        }
        #expect(try await h.rp.store.oidcClients().isEmpty)
    }
}
