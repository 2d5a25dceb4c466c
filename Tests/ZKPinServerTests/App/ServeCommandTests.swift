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
        // The start-up lines on standard output are JSON objects too (issue 28, finding 9).
        let announced = try await server.waitUntilListening()
        for line in announced.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["message"] is String, "not a JSON log line: \(line)")
        }
        #expect(announced.contains("listening on"))
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
        // The settings are printed, masked, and then refused as serve would refuse them: a
        // password in the database URL (issue 28, finding 1).
        #expect(run.status == 78, "\(run.err)")
        #expect(run.err.contains("holds a password"), "\(run.err)")
        #expect(!run.err.contains("pg-secret"), "\(run.err)")
        #expect(!run.out.contains("do-not-print") && !run.out.contains("pg-secret"), "\(run.out)")
        #expect(run.out.range(of: #"port\s+9100\s+flag --port"#, options: .regularExpression) != nil, "\(run.out)")
        #expect(run.out.range(of: #"service-name\s+Example\s+file "#, options: .regularExpression) != nil)
        #expect(run.out.range(of: #"mail-from\s+login@example.com\s+environment ZKPIN_MAIL_FROM"#, options: .regularExpression) != nil)
        #expect(run.out.contains("smtp-password"))

        let bad = try Self.server(["config", "check"], environment: ["ZKPIN_LOG_LEVEL": "loud"])
        #expect(bad.status == 78, "\(bad.err)")
        #expect(bad.err.contains("ZKPIN_LOG_LEVEL"))
    }

    /// The flags are the settings table's: `serve --help` shows each setting's flag, value name
    /// and help, and each flag given reaches its setting (`config check` names the flag).
    @Test func theFlagsAreTheSettingsTable() throws {
        let help = try Self.server(["serve", "--help"])
        #expect(help.status == 0, "\(help.err)")
        // ArgumentParser wraps the help: compare with the white space run together.
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let shown = flat(help.out)
        for setting in ServeSettings.all {
            #expect(shown.contains("--\(setting.name) <\(setting.valueName)>"), "--\(setting.name) <\(setting.valueName)> not in serve --help")
            #expect(shown.contains(flat(setting.helpText)), "the help of --\(setting.name) is not \(setting.helpText)")
        }
        #expect(shown.contains("--config <FILE>"))
        let flags = ServeSettings.all.enumerated().flatMap { ["--" + $0.element.name, "value\($0.offset)"] }
        let check = try Self.server(["config", "check"] + flags)
        for (index, setting) in ServeSettings.all.enumerated() {
            let row = "(?m)^\(setting.name)\\s+value\(index)\\s+flag --\(setting.name)$"
            #expect(check.out.range(of: row, options: .regularExpression) != nil, "\(row) not in:\n\(check.out)")
        }
    }

    /// `config check` and `serve` run the same checks, including the files the settings name;
    /// `serve` refuses with the same status before it writes anything (issue 28, finding 1:
    /// the shipped example passed `config check` and `serve` then wrote the master-secret
    /// shares and the database before it failed on the SMTP password file).
    @Test func configCheckAndServeAgreeOnTheFilesTheSettingsName() throws {
        let dir = try TempDir.make()
        let open = dir + "/open-password"
        try "secret\n".write(toFile: open, atomically: true, encoding: .utf8)
        chmod(open, 0o644)
        let notPEM = dir + "/ca.pem"
        try "not a certificate\n".write(toFile: notPEM, atomically: true, encoding: .utf8)
        // Each bad setting, the words of its refusal, and its status (78 a setting, 73 a folder).
        let cases: [(settings: String, words: String, status: Int32)] = [
            (#""smtp": "smtp://zkpin@mail.example.com:587", "smtp-password-file": "\#(dir)/missing""#, "smtp-password-file", 78),
            (#""smtp": "smtp://zkpin@mail.example.com:587", "smtp-password-file": "\#(open)""#, "0600", 78),
            (#""smtp": "smtp://mail.example.com:587", "smtp-ca-file": "\#(notPEM)""#, "smtp-ca-file", 78),
            (#""smtp-password-file": "\#(dir)/missing""#, "needs --smtp", 78),
            (#""dta2": "http://127.0.0.1:9", "dta2-key-file": "\#(dir)/missing""#, "dta2-key-file", 78),
            (#""database": "postgres://zkpin@127.0.0.1:9/zkpin", "database-password-file": "\#(dir)/missing""#, "password file", 78),
            (#""outbox": "\#(open)/mails""#, "outbox", 73)
        ]
        for (index, item) in cases.enumerated() {
            let data = dir + "/data\(index)"
            let file = dir + "/zkpin\(index).json"
            let port = ServerProcess.freePort()
            try #"{"data": "\#(data)", "port": \#(port), \#(item.settings)}"#.write(toFile: file, atomically: true, encoding: .utf8)
            let check = try Self.server(["config", "check", "--config", file])
            #expect(check.status == item.status, "config check with \(item.settings): \(check.out) \(check.err)")
            #expect(check.err.contains(item.words), "\(item.settings): \(check.err)")
            #expect(!check.out.contains("The settings are usable."))
            let serve = try Self.server(["serve", "--config", file])
            #expect(serve.status == check.status, "serve with \(item.settings): \(serve.err)")
            #expect(serve.err.contains(item.words), "\(item.settings): \(serve.err)")
            #expect(!FileManager.default.fileExists(atPath: data), "serve wrote \(data) before it refused \(item.settings)")
        }
        // The same files, readable and 0600, pass both.
        let good = dir + "/password"
        try "secret\n".write(toFile: good, atomically: true, encoding: .utf8)
        chmod(good, 0o600)
        let file = dir + "/good.json"
        try #"{"data": "\#(dir)/good", "smtp": "smtp://zkpin@mail.example.com:587", "smtp-password-file": "\#(good)"}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let check = try Self.server(["config", "check", "--config", file])
        #expect(check.status == 0, "\(check.err)")
        #expect(check.out.contains("The settings are usable."))
    }

    /// A data folder that cannot be made is found by `config check` too.
    @Test func configCheckFindsADataFolderThatCannotBeMade() throws {
        let dir = try TempDir.make()
        let blocker = dir + "/file"
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
        let check = try Self.server(["config", "check", "--data", blocker + "/data"])
        #expect(check.status == 73, "\(check.err)")
        #expect(check.err.contains("cannot be created"))
    }

    @Test func printsTheOneVersion() throws {
        let run = try Self.server(["--version"])
        #expect(run.status == 0)
        #expect(run.out.trimmingCharacters(in: .whitespacesAndNewlines) == ZKPinVersion.text)
    }
}
