import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The admin API's changes and filters: clients added, their redirect URIs changed, secrets
/// rotated and clients removed (each holding at once on this instance, each audited); keys
/// listed and rotated; one person's page; the audit log by kind, time and page, and as JSON
/// lines.
@Suite struct AdminChangeAPITests {
    static func object(_ reply: Reply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any], "\(reply.text)")
    }

    static func array(_ reply: Reply) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [[String: Any]], "\(reply.text)")
    }

    @Test func clientsAreAddedChangedRotatedAndRemoved() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let token = try await AdminAPITests.token(t, h, access: "write")
            let flow = OIDCFlow(t: t)
            let added = try await AdminAPITests.call(
                t, "POST", "/admin/v1/clients", token: token,
                body: #"{"name":"Reports","redirectURIs":["https://reports.example/cb"],"introspect":true}"#)
            #expect(added.status == 201, "\(added.text)")
            let answer = try Self.object(added)
            let client = try #require(answer["client"] as? [String: Any])
            let id = try #require(client["id"] as? String)
            let secret = try #require(answer["clientSecret"] as? String)
            #expect(client["roles"] as? [String] == ["introspect"] && client["authMethod"] as? String == "client_secret_basic")
            // The secret works at once: introspection with it answers (inactive for junk).
            let first = try await flow.post("/oauth/introspect", ["token": "junk"], basic: (id, secret))
            #expect(first.status == 200 && first.text.contains("\"active\":false"), "\(first.text)")

            // Redirect URIs replaced; the answer is the CLI's listing row.
            let changed = try await AdminAPITests.call(
                t, "PUT", "/admin/v1/clients/\(id)/redirect-uris", token: token, body: #"{"redirectURIs":["https://reports.example/new"]}"#)
            let changedRow = try Self.object(changed)
            #expect(changed.status == 200 && changedRow["redirectURIs"] as? [String] == ["https://reports.example/new"])
            let listed = try await AdminCommandTests.admin(["clients", "list", "--json", "--data", h.dir])
            let row = try #require(
                (try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])?.first { $0["id"] as? String == id })
            #expect(row["redirectURIs"] as? [String] == ["https://reports.example/new"])
            let badURI = try await AdminAPITests.call(
                t, "PUT", "/admin/v1/clients/\(id)/redirect-uris", token: token, body: #"{"redirectURIs":["not a uri"]}"#)
            #expect(badURI.status == 400 && badURI.text.contains("not an absolute"), "\(badURI.text)")
            let nobody = try await AdminAPITests.call(
                t, "PUT", "/admin/v1/clients/zk-nobody/redirect-uris", token: token, body: #"{"redirectURIs":["https://x.example/cb"]}"#)
            #expect(nobody.status == 404)

            // A new secret: the old one stops at once, the new one works.
            let rotated = try await AdminAPITests.call(t, "POST", "/admin/v1/clients/\(id)/secret", token: token)
            let rotatedRow = try Self.object(rotated)
            let fresh = try #require(rotatedRow["clientSecret"] as? String)
            #expect(rotated.status == 200 && fresh != secret)
            let old = try await flow.post("/oauth/introspect", ["token": "junk"], basic: (id, secret))
            #expect(old.status == 401, "\(old.status) \(old.text)")
            #expect(try await flow.post("/oauth/introspect", ["token": "junk"], basic: (id, fresh)).status == 200)

            // A public client has no secret to rotate.
            let (site, _) = try await OIDCFlow.addClient(h, name: "Phone app", isPublic: true)
            let publicRotate = try await AdminAPITests.call(t, "POST", "/admin/v1/clients/\(site.id)/secret", token: token)
            #expect(publicRotate.status == 400 && publicRotate.text.contains("public client"), "\(publicRotate.text)")

            // Removed: its secret stops, a second removal is 404.
            let removed = try await AdminAPITests.call(t, "DELETE", "/admin/v1/clients/\(id)", token: token)
            #expect(removed.status == 200 && removed.text.contains("\"changed\":1"))
            #expect(try await flow.post("/oauth/introspect", ["token": "junk"], basic: (id, fresh)).status == 401)
            #expect(try await AdminAPITests.call(t, "DELETE", "/admin/v1/clients/\(id)", token: token).status == 404)

            // Refusals are 400 with the registry's sentence, nothing added.
            let before = try await h.rp.store.oidcClients().count
            for body in [
                #"{"name":"","redirectURIs":["https://x.example/cb"]}"#, #"{"name":"X"}"#, #"{"name":"X","ciba":"push"}"#,
                #"{"name":"X","adminScopes":"root"}"#, #"{"name":"X","otp":true,"public":true}"#, #"{"redirectURIs":[]}"#, "[1]"
            ] {
                let refused = try await AdminAPITests.call(t, "POST", "/admin/v1/clients", token: token, body: body)
                #expect(refused.status == 400, "\(body): \(refused.status) \(refused.text)")
            }
            #expect(try await h.rp.store.oidcClients().count == before)
            let kinds = try await h.rp.store.auditLog(limit: 200).map(\.kind)
            for kind in ["oidc_client_add", "oidc_client_change", "oidc_client_secret_rotate", "oidc_client_remove"] {
                #expect(kinds.contains(kind), "\(kind)")
            }
        }
    }

    @Test func keysAreListedAndRotated() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let token = try await AdminAPITests.token(t, h, access: "write")
            let before = try Self.array(try await AdminAPITests.call(t, "GET", "/admin/v1/keys", token: token))
            let current = Set(before.filter { ($0["status"] as? String)?.hasPrefix("current") == true }.compactMap { $0["kid"] as? String })
            #expect(!current.isEmpty)
            let rotated = try await AdminAPITests.call(t, "POST", "/admin/v1/keys/rotate", token: token)
            #expect(rotated.status == 200, "\(rotated.text)")
            let after = try Self.array(rotated)
            let now = Set(after.filter { ($0["status"] as? String)?.hasPrefix("current") == true }.compactMap { $0["kid"] as? String })
            #expect(now.count == current.count && now.isDisjoint(with: current), "\(after)")
            // The old keys stay published (retired) and the JWKS shows the new ones.
            #expect(current.allSatisfy { kid in after.contains { $0["kid"] as? String == kid } })
            let jwks = try await t.get("/oauth/jwks").text
            #expect(now.allSatisfy(jwks.contains) && current.allSatisfy(jwks.contains), "\(jwks)")
            #expect(try await h.rp.store.auditLog(limit: 50).contains { $0.kind == "keys_rotate" && $0.detail.contains("admin API client") })
        }
    }

    @Test func aPersonAndTheAuditLogByKindTimeAndPage() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let kim = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            #expect(try await kim.login(t).status == 200)
            h.clock.advance(100)
            _ = try await kim.login(t, pin: 1111)
            let token = try await AdminAPITests.token(t, h, access: "read")

            let person = try Self.object(try await AdminAPITests.call(t, "GET", "/admin/v1/users/Kim@Example.com", token: token))
            #expect(person["userId"] as? String == "kim@example.com")
            #expect((person["identities"] as? [[String: Any]])?.count == 1)
            let personal = try #require(person["audit"] as? [[String: Any]])
            #expect(
                personal.contains { $0["kind"] as? String == "wrong_pin" } && personal.allSatisfy { $0["userId"] as? String == "kim@example.com" })
            #expect(try await AdminAPITests.call(t, "GET", "/admin/v1/users/nobody@example.com", token: token).status == 404)

            // By kind.
            let wrong = try Self.array(try await AdminAPITests.call(t, "GET", "/admin/v1/audit?kind=wrong_pin", token: token))
            #expect(wrong.count == 1 && wrong[0]["kind"] as? String == "wrong_pin")
            // By time: before the wrong PIN, and from it on.
            let cut = h.clock.now - 50
            let early = try Self.array(try await AdminAPITests.call(t, "GET", "/admin/v1/audit?until=\(cut)&limit=1000", token: token))
            let late = try Self.array(try await AdminAPITests.call(t, "GET", "/admin/v1/audit?since=\(cut)&limit=1000", token: token))
            #expect(early.contains { $0["kind"] as? String == "login" } && !early.contains { $0["kind"] as? String == "wrong_pin" })
            #expect(late.contains { $0["kind"] as? String == "wrong_pin" } && !late.contains { $0["kind"] as? String == "register" })
            #expect(try await AdminAPITests.call(t, "GET", "/admin/v1/audit?since=\(cut)&until=\(cut)", token: token).status == 400)

            // Pages back with before=: together they are the whole log, without overlap.
            let all = try Self.array(try await AdminAPITests.call(t, "GET", "/admin/v1/audit?limit=1000", token: token))
            var pages: [[String: Any]] = []
            var before: Int? = nil
            while true {
                let path = "/admin/v1/audit?limit=3" + (before.map { "&before=\($0)" } ?? "")
                let page = try Self.array(try await AdminAPITests.call(t, "GET", path, token: token))
                if page.isEmpty { break }
                pages = page + pages
                before = page.first?["id"] as? Int
            }
            // The paging calls are audited themselves: compare the rows the full listing had.
            let ids = all.compactMap { $0["id"] as? Int }
            #expect(Array(pages.compactMap { $0["id"] as? Int }.prefix(ids.count)) == ids)

            // JSON lines: one compact object per line, the same rows as the JSON listing.
            let lines = try await AdminAPITests.call(t, "GET", "/admin/v1/audit?kind=login,wrong_pin&format=jsonl", token: token)
            #expect(lines.header("Content-Type") == "application/x-ndjson" && lines.text.hasSuffix("\n"))
            let parsed = try lines.text.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            let listed = try Self.array(try await AdminAPITests.call(t, "GET", "/admin/v1/audit?kind=login,wrong_pin", token: token))
            #expect(parsed.count == listed.count && parsed.count >= 2)
            #expect(zip(parsed, listed).allSatisfy { $0["id"] as? Int == $1["id"] as? Int && $0["detail"] as? String == $1["detail"] as? String })
            let accept = try await t.get(
                "/admin/v1/audit?kind=login", headers: [("Authorization", "Bearer \(token)"), ("Accept", "application/x-ndjson")])
            #expect(accept.header("Content-Type") == "application/x-ndjson")
            // The CLI's export is the same lines.
            let cli = try await AdminCommandTests.admin(["audit", "--json-lines", "--kind", "login,wrong_pin", "--data", h.dir])
            #expect(cli.status == 0 && cli.out == lines.text, "\(cli.out)\n---\n\(lines.text)")
            for junk in ["until=x", "before=0", "since=-1", "limit=100001&format=jsonl", "limit=10001"] {
                #expect(try await AdminAPITests.call(t, "GET", "/admin/v1/audit?\(junk)", token: token).status == 400, "\(junk)")
            }
        }
    }
}
