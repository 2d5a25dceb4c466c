import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Failed client authentications and unknown bearer tokens are limited per address (429 with
/// Retry-After, audited); the pages send no referrer to other origins and may not be framed.
@Suite struct ClientAuthLimitTests {
    @Test func wrongClientSecretsAreLimitedPerAddress() async throws {
        let h = try await Harness.make()
        let (client, secret) = try await OIDCFlow.addClient(h)
        let rule = h.rp.config.limits.failedClientAuthPerAddress
        try await h.run { t in
            let flow = OIDCFlow(t: t)
            let fields = ["grant_type": "authorization_code", "code": "x", "redirect_uri": OIDCFlow.callback]
            for attempt in 0..<rule.limit {
                let reply = try await flow.token(fields, basic: (client.id, "wrong-\(attempt)"))
                #expect(reply.status == 401 && reply.oauthError == "invalid_client", "attempt \(attempt): \(reply.status)")
            }
            let limited = try await flow.token(fields, basic: (client.id, "wrong-again"))
            #expect(limited.status == 429 && limited.oauthError == "too_many_requests", "\(limited.status) \(limited.text)")
            #expect(limited.header("Retry-After") == String(rule.window))
            // The address is held back whatever it sends, until the window ends.
            let right = try await flow.token(fields, basic: (client.id, try #require(secret)))
            #expect(right.status == 429)
            h.clock.advance(rule.window + 1)
            let later = try await flow.token(fields, basic: (client.id, try #require(secret)))
            #expect(later.status == 400 && later.oauthError == "invalid_grant", "\(later.status) \(later.text)")
        }
        let refusals = try await h.rp.store.auditLog(limit: 200).filter { $0.kind == "oidc_refused" && $0.detail.hasPrefix("too_many_requests") }
        #expect(refusals.count == 2)
    }

    @Test func unknownBearerTokensAreLimitedPerAddress() async throws {
        let h = try await Harness.make()
        let rule = h.rp.config.limits.invalidBearersPerAddress
        try await h.run { t in
            for attempt in 0..<rule.limit {
                let reply = try await t.get("/oauth/userinfo", headers: [("Authorization", "Bearer guess-\(attempt)")])
                #expect(reply.status == 401, "attempt \(attempt)")
            }
            let limited = try await t.get("/oauth/userinfo", headers: [("Authorization", "Bearer guess-more")])
            #expect(limited.status == 429 && limited.header("Retry-After") == String(rule.window), "\(limited.status)")
        }
    }

    @Test func pagesSendNoReferrerAndRefuseFraming() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let page = try await t.get("/", headers: [("Accept", "text/html")])
            #expect(page.status == 200)
            #expect(page.header("Referrer-Policy") == "same-origin")
            #expect(page.header("X-Frame-Options") == "DENY")
            #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        }
    }
}
