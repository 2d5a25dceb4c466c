import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Two `zkpin-server serve` processes on one PostgreSQL database, over real loopback sockets.
@Suite(.serialized, .enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason))
struct MultiInstanceTests {
    @Test func registerOnAPageOnBLoginThroughA() async throws {
        let c = try await Cluster()
        defer { c.stop() }
        let user = try await TestUser.register(c.ta, email: "multi@example.com", pin: 1234, outbox: c.outbox)
        let cookie = try await SplitLogin.signIn(page: c.tb, client: c.ta, user: user)
        #expect(try await SplitLogin.isSignedIn(c.tb, cookie: cookie, as: "multi@example.com"))
        // The session lives in the database: A knows it too.
        #expect(try await SplitLogin.isSignedIn(c.ta, cookie: cookie, as: "multi@example.com"))
    }

    @Test func concurrentWrongPINsOnBothInstancesCountExactlyTheMaximum() async throws {
        let c = try await Cluster()
        defer { c.stop() }
        let user = try await TestUser.register(c.ta, email: "split@example.com", pin: 1234, outbox: c.outbox)
        let (ta, tb) = (c.ta, c.tb)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<20 {
                group.addTask { try await user.login(i % 2 == 0 ? ta : tb, pin: 5000 + i).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { [401, 410, 429].contains($0) }, "\(statuses)")
        let identity = try #require(try await c.store().identity(mpinId: user.mpinId))
        #expect(identity.failedAttempts == 3)
        #expect(identity.state == .blocked)
        // Only three pairings ran, across both instances.
        #expect(try await Cluster.verifications(ta) + Cluster.verifications(tb) == 3)
        for t in [ta, tb] {
            #expect(try await user.login(t).status == 410)
            #expect(try await user.login(t, pin: 1).status == 410)
        }
    }

    @Test func instanceKilledDuringALoginTheClientRetriesOnTheOther() async throws {
        let c = try await Cluster()
        defer { c.stop() }
        let user = try await TestUser.register(c.ta, email: "kill@example.com", pin: 2468, outbox: c.outbox)
        let cookie = try await SplitLogin.signIn(page: c.ta, client: c.ta, user: user)
        let ta = c.ta
        // A login in flight on A (somewhere in pass 1, pass 2 or authenticate) when A dies.
        let inFlight = Task { try? await user.login(ta) }
        try await Task.sleep(for: .milliseconds(20))
        c.a.kill()
        _ = await inFlight.value
        #expect((try? await ta.get("/service")) == nil, "A is gone")
        // The client retries against B.
        #expect(try await user.login(c.tb).status == 200)
        // Nothing was lost: the identity is sound, the session opened through A still works on B,
        // and a whole browser login runs on B.
        let identity = try #require(try await c.store().identity(mpinId: user.mpinId))
        #expect(identity.state == .active && identity.failedAttempts == 0)
        #expect(try await SplitLogin.isSignedIn(c.tb, cookie: cookie, as: "kill@example.com"))
        let again = try await SplitLogin.signIn(page: c.tb, client: c.tb, user: user)
        #expect(try await SplitLogin.isSignedIn(c.tb, cookie: again, as: "kill@example.com"))
    }

    @Test func anInstanceWithOtherKeysIsRefusedAtStart() async throws {
        let c = try await Cluster()
        defer { c.stop() }
        let port = ServerProcess.freePort()
        let errors = Pipe()
        let other = try ServerProcess(
            [
                "serve", "--port", "\(port)", "--data", c.dir + "/other", "--curve", "bn254cx",
                "--database", c.database, "--dta2", c.dta.base, "--dta2-key-file", c.keyFile
            ],
            port: port, errors: errors)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let status = other.process.exitStatus(within: 60)
        #expect(status != nil && status != 0)
        #expect(message.contains("differ from those of the instances that already use this database"), "\(message)")
    }
}

/// Restarts PostgreSQL under running instances: on the second throwaway server, so nothing
/// else is disturbed.
@Suite(.serialized, .enabled(if: TestPostgres.canRestart, TestPostgres.restartSkipReason))
struct PostgresRestartTests {
    @Test func storeReconnectsAfterARestart() async throws {
        let store = try await TestPostgres.freshStore(restartable: true)
        try await store.insertRegistration(pending("r1"))
        #expect(try await store.activate(mpinId: "r1", now: 1001))
        try TestPostgres.restart()
        // The pool's old connections died with the server; new ones serve the next calls.
        #expect(try await store.identity(mpinId: "r1")?.state == .active)
        #expect(try await store.countEvent(key: "after-restart", window: 60, now: 1) == 1)
    }

    @Test func bothInstancesKeepServingAfterARestart() async throws {
        let c = try await Cluster(restartable: true)
        defer { c.stop() }
        let user = try await TestUser.register(c.ta, email: "restart@example.com", pin: 1111, outbox: c.outbox)
        #expect(try await user.login(c.tb).status == 200)
        try TestPostgres.restart()
        #expect(try await user.login(c.ta).status == 200)
        #expect(try await user.login(c.tb).status == 200)
        let cookie = try await SplitLogin.signIn(page: c.tb, client: c.ta, user: user)
        #expect(try await SplitLogin.isSignedIn(c.tb, cookie: cookie, as: "restart@example.com"))
        // New registrations too (writes to several tables).
        let second = try await TestUser.register(c.tb, email: "after@example.com", pin: 2222, outbox: c.outbox)
        #expect(try await second.login(c.ta).status == 200)
    }
}
