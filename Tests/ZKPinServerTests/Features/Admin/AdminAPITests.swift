import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// `/admin/v1` with client credentials: scoped tokens, 401 and 403 for each operation, and the
/// same JSON as `zkpin-server admin ... --json` for the same data.
@Suite struct AdminAPITests {
    /// Every operation; the writes that change something take a body or name what they change,
    /// and answer 200 (or 201) with a token that may write.
    static let operations: [(method: String, path: String, scope: String, body: String?)] = [
        ("GET", "/admin/v1/users", AdminScopes.read, nil),
        ("GET", "/admin/v1/audit", AdminScopes.read, nil),
        ("GET", "/admin/v1/audit?format=jsonl", AdminScopes.read, nil),
        ("GET", "/admin/v1/clients", AdminScopes.read, nil),
        ("GET", "/admin/v1/keys", AdminScopes.read, nil),
        ("POST", "/admin/v1/users/kim@example.com/revoke", AdminScopes.write, nil),
        ("POST", "/admin/v1/users/kim@example.com/unblock", AdminScopes.write, nil),
        ("POST", "/admin/v1/clients", AdminScopes.write, #"{"name":"Wiki","redirectURIs":["https://wiki.example/cb"]}"#),
        ("POST", "/admin/v1/keys/rotate", AdminScopes.write, nil)
    ]

    /// An admin client's access token (client credentials).
    static func token(_ t: any Transport, _ h: Harness, access: String, scope: String? = nil) async throws -> String {
        let (client, secret) = try await ClientRegistry.add(
            to: h.rp.store, name: "Help desk \(access)", redirectURIs: [], postLogoutURIs: [], isPublic: false,
            adminScopes: try #require(AdminScopes.granted(access)), now: h.clock.now)
        var fields = ["grant_type": "client_credentials"]
        if let scope { fields["scope"] = scope }
        let reply = try await OIDCFlow(t: t).token(fields, basic: (client.id, try #require(secret)))
        #expect(reply.status == 200, "\(reply.text)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        #expect(answer["id_token"] == nil && answer["refresh_token"] == nil, "\(answer)")
        return try #require(answer["access_token"] as? String)
    }

    static func call(_ t: any Transport, _ method: String, _ path: String, token: String?, body: String? = nil) async throws -> Reply {
        var headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if method == "POST" && body == nil { return try await t.form(path, [:], headers: headers) }
        return try await t.send(method, path, headers: headers, body: body.map { Array($0.utf8) })
    }

    @Test func everyOperationNeedsATokenWithItsScope() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let reader = try await Self.token(t, h, access: "read")
            let writer = try await Self.token(t, h, access: "write")
            let narrowed = try await Self.token(t, h, access: "write", scope: AdminScopes.read)
            for op in Self.operations {
                let none = try await Self.call(t, op.method, op.path, token: nil, body: op.body)
                #expect(none.status == 401 && none.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(op.path): \(none.status)")
                let wrong = try await Self.call(t, op.method, op.path, token: "not-a-token", body: op.body)
                #expect(wrong.status == 401 && wrong.text.contains("invalid_token"), "\(op.path): \(wrong.status)")
                let read = try await Self.call(t, op.method, op.path, token: reader, body: op.body)
                let narrow = try await Self.call(t, op.method, op.path, token: narrowed, body: op.body)
                if op.scope == AdminScopes.write {
                    #expect(read.status == 403 && read.text.contains("insufficient_scope"), "\(op.path): \(read.status) \(read.text)")
                    #expect(narrow.status == 403, "a token asked with the read scope only cannot write: \(op.path)")
                } else {
                    #expect(read.status == 200, "\(op.path): \(read.status) \(read.text)")
                }
                let write = try await Self.call(t, op.method, op.path, token: writer, body: op.body)
                #expect([200, 201].contains(write.status), "\(op.path): \(write.status) \(write.text)")
            }
            // A client that is no admin client gets no client credentials token.
            let (site, secret) = try await OIDCFlow.addClient(h)
            let refused = try await OIDCFlow(t: t).token(["grant_type": "client_credentials"], basic: (site.id, try #require(secret)))
            #expect(refused.status == 400 && refused.oauthError == "unauthorized_client", "\(refused.text)")
            let beyond = try await OIDCFlow(t: t).post(
                "/oauth/token", ["grant_type": "client_credentials", "scope": "zkpin:admin:root"], basic: (site.id, try #require(secret)))
            #expect(beyond.status == 400)
            #expect(try await h.rp.store.auditLog(limit: 500).contains { $0.kind == "admin_api" && $0.detail.contains("GET /admin/v1/users") })
        }
    }

    /// The API's listings are the CLI's `--json`, byte for byte, and its revoke and unblock
    /// change what the CLI then lists (and are audited as the CLI's are).
    @Test func theAPIAnswersWhatTheCLIPrints() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let kim = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            for pin in [1111, 2222, 3333] { _ = try await kim.login(t, pin: pin) }
            let token = try await Self.token(t, h, access: "write")
            let blocked = try await Self.call(t, "GET", "/admin/v1/users?email=KIM@example.com", token: token)
            #expect(blocked.text.contains("\"state\" : \"blocked\""), "\(blocked.text)")
            let unblocked = try await Self.call(t, "POST", "/admin/v1/users/kim@example.com/unblock", token: token)
            #expect(unblocked.status == 200 && unblocked.text.contains("\"changed\":1"), "\(unblocked.text)")
            #expect(try await kim.login(t).status == 200)

            for (path, cli) in [
                ("/admin/v1/users", ["users", "--json"]), ("/admin/v1/clients", ["clients", "list", "--json"]),
                ("/admin/v1/audit?email=kim@example.com&limit=5", ["audit", "--json", "--user", "kim@example.com", "--limit", "5"]),
                ("/admin/v1/audit?kind=login,wrong_pin&limit=3", ["audit", "--json", "--kind", "login", "--kind", "wrong_pin", "--limit", "3"]),
                ("/admin/v1/keys", ["keys", "list", "--json"])
            ] {
                let api = try await Self.call(t, "GET", path, token: token)
                let run = try await AdminCommandTests.admin(cli + ["--data", h.dir])
                #expect(run.status == 0)
                // The API's call is audited before it reads: the audit listing is compared up to it.
                let cliText = run.out.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(api.text.trimmingCharacters(in: .whitespacesAndNewlines) == cliText, "\(path)")
            }
            let revoked = try await Self.call(t, "POST", "/admin/v1/users/kim@example.com/revoke", token: token)
            #expect(revoked.text.contains("\"changed\":1"))
            #expect(try await AdminCommandTests.admin(["users", "--data", h.dir]).out.contains("revoked"))
            #expect(try await h.rp.store.auditLog(limit: 50).contains { $0.kind == "revoke" && $0.detail.contains("admin API client") })
            let junk = try await Self.call(t, "GET", "/admin/v1/users?limit=0", token: token)
            #expect(junk.status == 400)
        }
    }
}
