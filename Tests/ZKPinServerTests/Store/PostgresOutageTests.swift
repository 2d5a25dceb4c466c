import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// PostgreSQL stops in the middle of requests: every request answers 503 with Retry-After
/// (none waits until the body timer drops it, none blames the person), `/ready` answers 503
/// and `/status` says the database is unavailable; once PostgreSQL is back, logins work again
/// and `/ready` answers 200.
@Suite(.serialized, .enabled(if: OutagePostgres.isConfigured, OutagePostgres.skipReason))
struct PostgresOutageTests {
    @Test func anOutageIsAnswered503AndServiceResumes() async throws {
        let database = try await OutagePostgres.freshDatabase()
        let live = try await LiveServer.start { o in o.database = database }
        defer { live.stop() }
        let t = live.transport
        let user = try await TestUser.register(t, email: "outage@example.com", pin: 2468, outbox: live.harness.outbox)
        #expect(try await user.login(t).status == 200)
        #expect(try await t.get("/ready").status == 200)

        try OutagePostgres.run("stop")
        var started = false
        defer { if !started { try? OutagePostgres.run("start") } }
        // Requests with and without a body, during the outage: each is a 503 with Retry-After
        // (a request the server dropped or never answered would throw or time out instead).
        for round in 0..<3 {
            let login = try await user.login(t)
            #expect(login.status == 503, "round \(round): login \(login.status) \(login.text)")
            let access = try await t.json("POST", "/rps/getAccessNumber", [String: String]())
            #expect(access.status == 503, "round \(round): access number \(access.status) \(access.text)")
            #expect(access.headers.contains { $0.0.lowercased() == "retry-after" }, "round \(round)")
            let ready = try await t.get("/ready")
            #expect(ready.status == 503 && ready.text.contains("unavailable"), "round \(round): \(ready.status) \(ready.text)")
            let status = try await t.get("/status")
            #expect(status.status == 200 && (try? status.json(ServerStatus.self).database) == "unavailable", "\(status.text)")
        }

        try OutagePostgres.run("start")
        started = true
        // Back: the service resumes (the watcher gives the driver a fresh pool within about a
        // second of the database's return; polled here up to a generous bound).
        var ready = 0
        for _ in 0..<60 where ready != 200 {
            ready = try await t.get("/ready").status
            if ready != 200 { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(ready == 200)
        let after = try await user.login(t)
        #expect(after.status == 200, "\(after.status) \(after.text)")
        #expect(try await t.get("/status").json(ServerStatus.self).database == "ok")
    }
}
