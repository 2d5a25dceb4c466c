import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Over real loopback sockets: in-process servers and `zkpin-server` child processes.
@Suite(.serialized) struct LoopbackTests {
    @Test func browserLoginOverASocket() async throws {
        let live = try await LiveServer.start()
        defer { live.stop() }
        let t = live.transport
        let user = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: live.harness.outbox)
        try await BrowserLogin.signIn(t, user: user, expectAccountOf: "alice@example.com", origin: t.base)
    }

    @Test func concurrentWrongPINsCountExactlyTheMaximum() async throws {
        let live = try await LiveServer.start()
        defer { live.stop() }
        let t = live.transport
        let user = try await TestUser.register(t, email: "bob@example.com", pin: 1234, outbox: live.harness.outbox)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<20 { group.addTask { try await user.login(t, pin: 5000 + i).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { [401, 410, 429].contains($0) }, "\(statuses)")
        let identity = try #require(try await live.harness.rp.store.identity(mpinId: user.mpinId))
        #expect(identity.failedAttempts == 3)
        #expect(identity.state == .blocked)
        #expect(live.harness.rp.metrics.text().contains("zkpin_verifications_total 3"))
        // Then 410 for everyone, the right PIN included.
        #expect(try await user.login(t).status == 410)
        #expect(try await user.login(t, pin: 1).status == 410)
    }

    @Test func concurrentRandomAttemptsCountNothing() async throws {
        let live = try await LiveServer.start()
        defer { live.stop() }
        let t = live.transport
        let user = try await TestUser.register(t, email: "carol@example.com", pin: 4321, outbox: live.harness.outbox)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await user.randomAttempt(t).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { [401, 429].contains($0) }, "\(statuses)")
        #expect(statuses.contains(401))
        #expect(try await live.harness.rp.store.identity(mpinId: user.mpinId)?.failedAttempts == 0)
        #expect(try await user.login(t).status == 200)
    }

    @Test func loginSurvivesSIGKILLAndRestart() async throws {
        let dir = try TempDir.make()
        let port = ServerProcess.freePort()
        let args = ["serve", "--port", "\(port)", "--data", dir, "--curve", "bn254cx"]
        let first = try ServerProcess(args, port: port)
        try await first.waitUntilListening()
        let t = SocketTransport(base: first.base)
        let user = try await TestUser.register(t, email: "dan@example.com", pin: 2468, outbox: dir + "/outbox")
        first.kill()
        let second = try ServerProcess(args, port: port)
        defer { second.stop() }
        try await second.waitUntilListening()
        try await BrowserLogin.signIn(t, user: user, expectAccountOf: "dan@example.com", origin: second.base)
    }

    @Test func separateDTA2Process() async throws {
        let dir = try TempDir.make()
        let keyFile = dir + "/dta2.key"
        FileManager.default.createFile(atPath: keyFile, contents: Data((Tokens.fresh() + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let dtaPort = ServerProcess.freePort()
        let dta = try ServerProcess(
            ["dta", "--port", "\(dtaPort)", "--data", dir + "/dta2", "--curve", "bn254cx", "--key-file", keyFile], port: dtaPort)
        defer { dta.stop() }
        try await dta.waitUntilListening()
        let status = try await SocketTransport(base: dta.base).get("/status").json(ServerStatus.self)
        #expect(status.curve == "bn254cx" && status.role == "dta2")

        let port = ServerProcess.freePort()
        let rp = try ServerProcess(
            [
                "serve", "--port", "\(port)", "--data", dir + "/rp", "--curve", "bn254cx",
                "--dta2", dta.base, "--dta2-key-file", keyFile
            ], port: port)
        defer { rp.stop() }
        try await rp.waitUntilListening()
        let t = SocketTransport(base: rp.base)
        let settings = try await t.get("/rps/clientSettings").json(ClientSettings.self)
        #expect(settings.dta2URL == dta.base)
        #expect(try await t.get("/dta2/status").status == 404)
        let user = try await TestUser.register(t, email: "eve@example.com", pin: 1357, outbox: dir + "/rp/outbox")
        try await BrowserLogin.signIn(t, user: user, expectAccountOf: "eve@example.com", origin: rp.base)
    }

    @Test func curveMismatchIsRefusedAtStart() async throws {
        let dir = try TempDir.make()
        let port = ServerProcess.freePort()
        let first = try ServerProcess(["serve", "--port", "\(port)", "--data", dir, "--curve", "bn254cx"], port: port)
        try await first.waitUntilListening()
        first.stop()
        let second = try ServerProcess(["serve", "--port", "\(port)", "--data", dir, "--curve", "bls12-381"], port: port)
        let status = second.process.exitStatus(within: 60)
        #expect(status != nil && status != 0)
    }
}
