import Foundation
import Testing
import ZKPinServer
import ZKPinTestSupport
import ZKPinWire

/// `zkpin-server serve` and `config check` as the real executable: exit statuses, the port
/// checked before the data folder is touched, file modes (issue 15).
@Suite(.serialized) struct ServeCommandTests {
    typealias Run = ProcessRun

    /// Runs `zkpin-server ARGS` to its end (these runs all stop by themselves).
    static func server(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        try ProcessRun.run(ServerProcess.binary, arguments, environment: environment)
    }

    @Test func exitStatusesTellUsageConfigurationDataFolderAndBindApart() throws {
        let dir = try TempDir.make()
        let port = ServerProcess.freePort()
        let usage = try Self.server(["serve", "--port", "eighty", "--data", dir + "/a"])
        #expect(usage.status == 64, "\(usage.err)")
        let configuration = try Self.server(["serve", "--data", dir + "/b"], environment: ["ZKPIN_PORT": "eighty"])
        #expect(configuration.status == 78, "\(configuration.err)")
        #expect(configuration.err.contains("ZKPIN_PORT"))
        #expect(!configuration.err.contains("USAGE"), "no usage text for a configuration error")

        // A plain file where the data folder should be.
        let blocker = dir + "/file"
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
        let dataFolder = try Self.server(["serve", "--port", String(port), "--data", blocker + "/data"])
        #expect(dataFolder.status == 73, "\(dataFolder.err)")
        #expect(dataFolder.err.contains("cannot be created"))
        #expect(!dataFolder.err.contains(".swift:"), "no build paths: \(dataFolder.err)")
    }

    @Test func aPortInUseIsReportedBeforeAnythingIsWritten() throws {
        // Held open and listening for the whole test, so the port stays in use.
        let occupied = try #require(LoopbackSocket(listeningWithBacklog: 1))
        defer { occupied.close() }
        let port = occupied.port
        let data = try TempDir.make() + "/data"
        let run = try Self.server(["serve", "--host", "127.0.0.1", "--port", String(port), "--data", data])
        #expect(run.status == 69, "\(run.err)")
        #expect(run.err.contains("cannot listen on 127.0.0.1:\(port)"))
        #expect(!FileManager.default.fileExists(atPath: data), "the data folder was created before the bind")
    }

    @Test func theDataFolderHoldsOnly0600FilesAnd0700Folders() async throws {
        let data = try TempDir.make() + "/data"
        // A folder from before: too open, with a file too open (zkpin.sqlite used to be 0644).
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try "old".write(toFile: data + "/notes.txt", atomically: true, encoding: .utf8)
        chmod(data + "/notes.txt", 0o644)
        let port = ServerProcess.freePort()
        let server = try ServerProcess(["serve", "--host", "127.0.0.1", "--port", String(port), "--data", data], port: port)
        try await server.waitUntilListening()
        // A mail in the outbox too: a registration.
        let register = try await HTTPJSON.send(
            method: "PUT", url: server.base + "/rps/user",
            headers: [("Content-Type", "application/json")],
            body: Array(try JSONEncoder().encode(RegisterRequest(userId: "kai@example.com", deviceName: "d"))))
        #expect(register.status == 200)
        server.stop()
        var seen = 0
        for name in try FileManager.default.subpathsOfDirectory(atPath: data) + [""] {
            let path = name.isEmpty ? data : data + "/" + name
            var status = stat()
            #expect(lstat(path, &status) == 0)
            let mode = status.st_mode & 0o777
            let isFolder = status.st_mode & S_IFMT == S_IFDIR
            #expect(mode == (isFolder ? 0o700 : 0o600), "\(name.isEmpty ? "data" : name): \(String(mode, radix: 8))")
            seen += 1
        }
        #expect(seen >= 7, "database, keys, outbox, a mail and the old file")
    }

    /// `--log-format json` and `--log-level` reach the executable's log handler: every line on
    /// standard error is one JSON object, and at debug the page polls appear.
    @Test func logsAsJSONAtTheChosenLevel() async throws {
        let data = try TempDir.make() + "/data"
        let port = ServerProcess.freePort()
        let errors = Pipe()
        let server = try ServerProcess(
            [
                "serve", "--host", "127.0.0.1", "--port", String(port), "--data", data,
                "--log-format", "json", "--log-level", "debug"
            ], port: port, errors: errors)
        try await server.waitUntilListening()
        _ = try await HTTPJSON.send(method: "GET", url: server.base + "/service")
        _ = try await HTTPJSON.send(
            method: "POST", url: server.base + "/rps/access", headers: [("Content-Type", "application/json")],
            body: Array(#"{"webOTT":"unknown"}"#.utf8))
        server.stop()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let objects = try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        func level(of prefix: String) -> String? {
            objects.first { ($0["message"] as? String)?.hasPrefix(prefix) == true }?["level"] as? String
        }
        #expect(level(of: "GET /service ") == "info", "\(text)")
        #expect(level(of: "POST /rps/access ") == "debug", "\(text)")
    }

    @Test func configCheckShowsSourcesAndMasksSecrets() throws {
        let dir = try TempDir.make()
        let file = dir + "/zkpin.json"
        try #"{"service-name": "Example", "port": 9000}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try Self.server(
            ["config", "check", "--config", file, "--port", "9100"],
            environment: [
                "ZKPIN_SMTP_PASSWORD": "do-not-print", "ZKPIN_MAIL_FROM": "login@example.com",
                "ZKPIN_DATABASE": "postgres://zkpin:pg-secret@db:5432/zkpin"
            ])
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.out.contains("do-not-print") && !run.out.contains("pg-secret"), "\(run.out)")
        #expect(run.out.range(of: #"port\s+9100\s+flag --port"#, options: .regularExpression) != nil, "\(run.out)")
        #expect(run.out.range(of: #"service-name\s+Example\s+file "#, options: .regularExpression) != nil)
        #expect(run.out.range(of: #"mail-from\s+login@example.com\s+environment ZKPIN_MAIL_FROM"#, options: .regularExpression) != nil)
        #expect(run.out.contains("smtp-password"))

        let bad = try Self.server(["config", "check"], environment: ["ZKPIN_LOG_LEVEL": "loud"])
        #expect(bad.status == 78, "\(bad.err)")
        #expect(bad.err.contains("ZKPIN_LOG_LEVEL"))
    }

    @Test func printsTheOneVersion() throws {
        let run = try Self.server(["--version"])
        #expect(run.status == 0)
        #expect(run.out.trimmingCharacters(in: .whitespacesAndNewlines) == ZKPinVersion.text)
    }
}
