import Foundation
import Testing
import ZKPinClient

/// `zkpin approve --watch` against a real `zkpin-server`: it answers what waits, then each new
/// request as the live stream tells of it, keeps watching through a SIGKILL of the server and
/// its restart on the same data folder, and ends with status 0 on Ctrl-C.
@Suite(
    .serialized,
    .enabled(
        if: Binaries.serverAvailable,
        "zkpin-server is not built beside the tests; run `swift build --product zkpin-server` (same --scratch-path) to run the end-to-end tests"))
struct ApproveWatchTests {
    /// The `--json` lines the watch wrote so far, by auth_req_id.
    static func answers(_ watch: ChildProcess) -> [String: String] {
        var found: [String: String] = [:]
        for line in watch.standardOutput.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["authReqId"] as? String, let status = object["status"] as? String
            else { continue }
            found[id] = status
        }
        return found
    }

    static func waitForAnswer(_ watch: ChildProcess, _ authReqId: String, seconds: Double = 120) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let status = answers(watch)[authReqId] { return status }
            if !watch.isRunning { return answers(watch)[authReqId] }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    @Test func answersNewRequestsAndKeepsWatchingThroughAServerRestart() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("wendy@example.com", on: server, pin: "2468")
        let bank = try await CIBASite.add("Bank", on: server)
        let waiting = try await bank.ask("Approve me", hint: "wendy@example.com")
        let other = try await bank.ask("Delete the account", hint: "wendy@example.com")

        // No terminal: --binding-message approves exactly those, anything else is left waiting.
        let watch = try ChildProcess(
            Binaries.client,
            ["approve", "--watch", "--pin-stdin", "--json", "--binding-message", "Approve me", "--home", home.path, "--timeout", "30"])
        defer { watch.signal(SIGKILL) }
        watch.write("2468\n")
        watch.closeInput()
        #expect(await Self.waitForAnswer(watch, waiting) == "approved", "\(watch.standardError)")
        #expect(await Self.waitForAnswer(watch, other) == "left", "\(watch.standardError)")
        #expect(await watch.waitForError("Watching for new requests to wendy@example.com"), "\(watch.standardError)")

        // A request made after the watch started is approved as it arrives, and the site gets
        // its ID token.
        let arrived = try await bank.ask("Approve me", hint: "wendy@example.com")
        #expect(await Self.waitForAnswer(watch, arrived) == "approved", "\(watch.standardError)")
        #expect(try await bank.answer(arrived)["id_token"] is String)

        // The server dies (SIGKILL) and comes back on the same data folder: the watch says so
        // both times and answers the next request.
        await server.kill()
        #expect(await watch.waitForError("Lost the connection to \(NSRegularExpression.escapedPattern(for: server.base))"), "\(watch.standardError)")
        try await server.restart()
        #expect(await watch.waitForError("Connected again to "), "\(watch.standardError)")
        let afterRestart = try await bank.ask("Approve me", hint: "wendy@example.com")
        #expect(await Self.waitForAnswer(watch, afterRestart) == "approved", "\(watch.standardError)")
        #expect(try await bank.answer(afterRestart)["id_token"] is String)
        #expect(Self.answers(watch)[other] == "left", "the other request is never answered")

        // Ctrl-C ends it cleanly.
        #expect(watch.isRunning)
        watch.signal(SIGINT)
        #expect(await watch.waitForExit(seconds: 30) == 0, "\(watch.standardError)")
        #expect(watch.standardError.contains("Stopped watching for requests to wendy@example.com."), "\(watch.standardError)")
        // Every line of standard output is one JSON object.
        for line in watch.standardOutput.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "\(line)")
        }
    }

    @Test func aWrongPINEndsTheWatchAtOnceAndDenyDeniesWhatArrives() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("dora@example.com", on: server, pin: "2468")

        // The first listing proves the PIN, so a wrong one is told before any watching.
        let wrong = try await home.run(["approve", "--watch", "--pin-stdin", "--json"], input: "1111\n")
        #expect(wrong.status == 1, "\(wrong.err)")
        let document = try JSONSerialization.jsonObject(with: Data(wrong.out.utf8)) as? [String: Any]
        #expect(document?["status"] as? String == "INCORRECT_PIN" && document?["attemptsLeft"] as? Int == 2, "\(wrong.out)")
        #expect(!wrong.err.contains("Watching"), "\(wrong.err)")
        let both = try await home.run(["approve", "--watch", "--wait", "5", "--pin-stdin"], input: "2468\n")
        #expect(both.status == 2 && both.err.contains("leave out --wait"), "\(both.err)")

        let bank = try await CIBASite.add("Bank", on: server)
        let watch = try ChildProcess(Binaries.client, ["approve", "--watch", "--deny", "--pin-stdin", "--home", home.path])
        defer { watch.signal(SIGKILL) }
        watch.write("2468\n")
        watch.closeInput()
        #expect(await watch.waitForError("No requests are waiting for dora@example.com now"), "\(watch.standardError)")
        #expect(await watch.waitForError("Watching for new requests"), "\(watch.standardError)")
        let asked = try await bank.ask("Transfer 900 EUR", hint: "dora@example.com")
        #expect(await watch.waitForOutput(#"(Denied: "Transfer 900 EUR" for Bank\.)"#, seconds: 120) != nil, "\(watch.standardError)")
        #expect(watch.standardError.contains("Bank asks: \"Transfer 900 EUR\""), "\(watch.standardError)")
        #expect(try await bank.answer(asked)["error"] as? String == "access_denied")
        watch.signal(SIGINT)
        #expect(await watch.waitForExit(seconds: 30) == 0, "\(watch.standardError)")
    }
}
