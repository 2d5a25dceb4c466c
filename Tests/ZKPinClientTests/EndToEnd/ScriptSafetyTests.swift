import Foundation
import Testing
import ZKPinClient
import ZKPinTestSupport
import ZKPinWire

/// What scripts rely on (issue 15): one JSON document on standard output under `--json`, a
/// quiet end when the reader closes the pipe, network trouble reported at once and in one
/// sentence, `--timeout`, `--version`.
@Suite(.serialized) struct ScriptSafetyTests {
    /// The whole standard output parsed as one JSON object: trailing text or a second
    /// document make this throw.
    static func document(_ result: CLIResult, _ context: String = "") throws -> [String: Any] {
        let text = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any], "\(context): stdout is not one JSON object: \(result.out)")
    }

    /// A failure document: status, message and the process's own exit code.
    static func expectFailureDocument(_ result: CLIResult, status: String, exitCode: Int32, _ context: String) throws {
        #expect(result.status == exitCode, "\(context): \(result.err)")
        let object = try document(result, context)
        #expect(object["status"] as? String == status, "\(context): \(result.out)")
        #expect(object["exitCode"] as? Int == Int(exitCode), "\(context)")
        #expect((object["message"] as? String)?.isEmpty == false, "\(context)")
    }

    /// A loopback port with nobody listening (bound, read, released).
    static func closedPort() throws -> Int { try TestServer.freePort() }

    /// `--help` says each default once, and a command that never talks to a server has no
    /// `--timeout` (issue 28, finding 10).
    @Test func helpSaysEachDefaultOnceAndOffersOnlyUsedOptions() async throws {
        let login = try await runClient(["login", "--help"])
        #expect(login.status == 0)
        #expect(login.out.contains("--timeout"), "\(login.out)")
        #expect(!login.out.contains("(default 5)"), "\(login.out)")
        #expect(login.out.components(separatedBy: "(default: 5)").count == 2, "\(login.out)")
        for command in ["users", "delete"] {
            let help = try await runClient([command, "--help"])
            #expect(help.status == 0)
            #expect(!help.out.contains("--timeout"), "\(command): \(help.out)")
        }
        #expect(try await runClient(["delete", "--help"]).out.contains("--yes"))
    }

    @Test func failuresUnderJSONAreOneDocumentEach() async throws {
        let home = ClientHome()
        defer { home.folder.remove() }
        let port = try Self.closedPort()
        let cases: [(arguments: [String], status: String, exitCode: Int32)] = [
            (["scan", "http://127.0.0.1:\(port)#1234561", "--json"], "INVALID_ACCESS_CODE", 2),
            (["scan", "http://127.0.0.1:\(port)#1234560", "--json"], "NETWORK_ERROR", 3),
            (["login", "http://127.0.0.1:\(port)#1234560", "--pin-stdin", "--json"], "NETWORK_ERROR", 3),
            (["register", "not-an-address", "--server", "http://127.0.0.1:\(port)", "--json"], "BAD_INPUT", 2),
            (["register", "kim@example.com", "--server", "http://127.0.0.1:\(port)", "--no-wait", "--json"], "NETWORK_ERROR", 3),
            (["confirm", "kim@example.com", "--json"], "BAD_INPUT", 2),
            (["delete", "kim@example.com", "--json"], "BAD_INPUT", 2),
            (["otp", "--server", "http://127.0.0.1:\(port)", "--pin-stdin", "--json"], "BAD_INPUT", 2),
            (["push", "settings", "--server", "http://127.0.0.1:\(port)", "--json"], "NETWORK_ERROR", 3),
            (["push", "list", "--json"], "BAD_INPUT", 2),
            (["approve", "--watch", "--pin-stdin", "--json"], "BAD_INPUT", 2),
            // Usage errors (ArgumentParser's) too.
            (["register", "--json"], "BAD_INPUT", 2),
            (["users", "--json", "--timeout", "0"], "BAD_INPUT", 2),
            (["login", "http://127.0.0.1:\(port)#1234560", "--json", "--timeout", "0"], "BAD_INPUT", 2),
            (["otp", "http://127.0.0.1:\(port)", "--server", "http://127.0.0.1:\(port)", "--json"], "BAD_INPUT", 2),
            (["push", "subscribe", "not-a-url", "--p256dh", "K", "--auth", "S", "--json"], "BAD_INPUT", 2),
            (["push", "unsubscribe", "--json"], "BAD_INPUT", 2)
        ]
        for (arguments, status, exitCode) in cases {
            let result = try await home.run(arguments, input: "1234\n")
            try Self.expectFailureDocument(result, status: status, exitCode: exitCode, arguments.joined(separator: " "))
        }
        let users = try await home.run(["users", "--json"])
        #expect(users.status == 0)
        #expect(try Self.document(users)["users"] as? [Any] != nil)
    }

    @Test(.enabled(if: Binaries.serverAvailable, "zkpin-server is not built beside the tests"))
    func successesUnderJSONAreOneDocumentEach() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }

        let started = try await home.run([
            "register", "lee@example.com", "--server", server.base, "--no-wait",
            "--device", "test", "--json"
        ])
        #expect(started.status == 0, "\(started.err)")
        let code = try #require(try Self.document(started, "register")["confirmationCode"] as? String)
        // The human line went to standard error.
        #expect(started.err.contains("Confirmation code: \(code)"))
        #expect(try await server.activate(email: "lee@example.com", code: code) == 200)

        let confirmed = try await home.run(["confirm", "lee@example.com", "--pin-stdin", "--wait", "30", "--json"], input: "2468\n")
        #expect(confirmed.status == 0, "\(confirmed.err)")
        let confirmation = try Self.document(confirmed, "confirm")
        #expect(confirmation["status"] as? String == "OK")
        #expect(confirmation["confirmationCode"] as? String == code)

        let access = try await server.accessNumber()
        let scan = try await home.run(["scan", access.qrUrl, "--json"])
        #expect(try Self.document(scan, "scan")["accessCode"] as? String == access.accessNumber)

        let (login, page) = try await home.login(on: server, pin: "2468", extra: ["--json"])
        #expect(login.status == 0, "\(login.err)")
        #expect(try Self.document(login, "login")["userId"] as? String == "lee@example.com")
        #expect(page.status == "authenticate")

        let wrong = try await home.login(on: server, pin: "1111", extra: ["--json"]).0
        try Self.expectFailureDocument(wrong, status: "INCORRECT_PIN", exitCode: 1, "login with a wrong PIN")

        let users = try await home.run(["users", "--json"])
        #expect((try Self.document(users, "users")["users"] as? [Any])?.count == 1)
        let deleted = try await home.run(["delete", "lee@example.com", "--json", "--yes"])
        #expect(try Self.document(deleted, "delete")["status"] as? String == "OK")
    }

    @Test(.enabled(if: Binaries.serverAvailable, "zkpin-server is not built beside the tests"))
    func loginChecksTheCodeBeforeAskingForThePIN() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("ash@example.com", on: server)
        // A well-formed code the server never issued, and no PIN on standard input: the
        // answer is about the code, not "standard input ended before a PIN line".
        let result = try await home.run(["login", server.base + "#1234560", "--pin-stdin"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("expired or was already used"), "\(result.err)")
        #expect(!result.err.contains("PIN line"))
    }

    /// A reader that is gone before `zkpin` writes: EPIPE on every write to standard output.
    @Test func aClosedStandardOutputEndsQuietly() async throws {
        let home = ClientHome()
        defer { home.folder.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.client)
        process.arguments = ["users", "--json", "--home", home.path]
        let out = Pipe(), err = Pipe()
        try out.fileHandleForReading.close()
        process.standardOutput = out
        process.standardError = err
        try process.runAlone()
        try out.fileHandleForWriting.close()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        let status = process.exitStatus(within: 60)
        #expect(!process.isRunning && process.terminationReason == .exit)
        #expect(status == 0)
        #expect(String(decoding: errors, as: UTF8.self).isEmpty, "\(String(decoding: errors, as: UTF8.self))")
    }

    /// The same through a shell pipeline, as a person types it.
    @Test func aPipeIntoHeadEndsQuietly() async throws {
        let home = ClientHome()
        defer { home.folder.remove() }
        let script = "set -o pipefail; '\(Binaries.client)' users --json --home '\(home.path)' | head -c1 >/dev/null"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        let err = Pipe()
        process.standardError = err
        try process.runAlone()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.exitStatus(within: 60) == 0, "\(errors)")
        #expect(!errors.contains("Fatal error") && !errors.contains("backtrace"), "\(errors)")
    }

    @Test func aRefusedConnectionIsReportedAtOnce() async throws {
        let home = ClientHome()
        defer { home.folder.remove() }
        let port = try Self.closedPort()
        // With a 10 s timeout, the refusal message (not the timeout's) shows that the client
        // did not wait for it.
        let result = try await home.run(["scan", "http://127.0.0.1:\(port)#1234560", "--timeout", "10"])
        #expect(result.status == 3)
        #expect(result.err.contains("the connection was refused"), "\(result.err)")
        #expect(!result.err.contains("did not answer"))
        #expect(result.err.split(separator: "\n").count == 1, "one line: \(result.err)")
    }

    @Test func anUnknownHostIsReportedInOneSentence() async throws {
        let home = ClientHome()
        defer { home.folder.remove() }
        let result = try await home.run(["scan", "http://no-such-host.invalid#1234560", "--timeout", "10"])
        #expect(result.status == 3)
        #expect(result.err.contains("the host name could not be found"), "\(result.err)")
        #expect(!result.err.contains(".swift"), "no build paths: \(result.err)")
    }

    /// https:// for a server that speaks http://: NIOSSL's error becomes one sentence.
    @Test(.enabled(if: Binaries.serverAvailable, "zkpin-server is not built beside the tests"))
    func aTLSMistakeIsOneSentence() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        let https = server.base.replacingOccurrences(of: "http://", with: "https://")
        let result = try await home.run(["scan", https + "#1234560"])
        #expect(result.status == 3)
        #expect(result.err.contains("the secure (TLS) connection failed"), "\(result.err)")
        #expect(!result.err.contains("NIOSSL") && !result.err.contains(".swift"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "one line: \(result.err)")
    }

    /// A server that accepts the connection and never answers: `--timeout` ends the wait.
    @Test func aSilentServerTimesOutWithOneLine() async throws {
        let silent = try #require(LoopbackSocket(listeningWithBacklog: 8))
        defer { silent.close() }
        let port = silent.port
        let home = ClientHome()
        defer { home.folder.remove() }
        let result = try await home.run(["scan", "http://127.0.0.1:\(port)#1234560", "--timeout", "1", "--json"])
        try Self.expectFailureDocument(result, status: "NETWORK_ERROR", exitCode: 3, "silent server")
        #expect(result.err.contains("did not answer within 1 s"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "one line: \(result.err)")
    }

    /// GRDB's text (SQL, result codes) stays out of the message about a damaged store.
    @Test func aDamagedStoreIsOneSentence() async throws {
        let home = ClientHome()
        defer { home.folder.remove() }
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        try "not a database".write(toFile: home.path + "/" + SQLiteIdentityStore.fileName, atomically: true, encoding: .utf8)
        let result = try await home.run(["users", "--json"])
        try Self.expectFailureDocument(result, status: "BAD_INPUT", exitCode: 2, "damaged store")
        #expect(result.err.contains("is not a zkpin identity store or is damaged"), "\(result.err)")
        #expect(!result.err.contains("SQLite error") && !result.err.contains("SQLITE_"), "\(result.err)")
    }

    @Test func bothBinariesPrintTheOneVersion() async throws {
        let client = try await runClient(["--version"])
        #expect(client.status == 0)
        #expect(client.out.trimmingCharacters(in: .whitespacesAndNewlines) == ZKPinVersion.text)
        guard Binaries.serverAvailable else { return }
        let child = try ChildProcess(Binaries.server, ["--version"])
        #expect(await child.waitForExit() == 0)
        #expect(child.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == ZKPinVersion.text)
    }
}
