import Foundation
import ZKPinServer
import ZKPinTestSupport

/// The repository's root, for the Python tools the push tests run.
enum RepositoryRoot {
    // Tests/ZKPinServerTests/Features/Push/ is four folders below the repository.
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
}

/// The Python tools need `cryptography` and PyJWT (tools/test installs both).
enum PythonWebPush {
    static let available: Bool = {
        guard let run = try? ProcessRun.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import cryptography, jwt"])
        else { return false }
        return run.status == 0
    }()

    struct Failed: Error, CustomStringConvertible { var description: String }

    /// Runs `python3 TOOL ARGS` with `input` on its standard input.
    static func run(_ tool: String, _ arguments: [String] = [], input: [UInt8]) throws -> (status: Int32, out: [UInt8], err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", RepositoryRoot.path(tool)] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.runAlone()
        // The tools read all their input before they write: write it all, then read.
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        return (process.exitStatus(within: 60) ?? process.stop() ?? -1, Array(out), String(decoding: err, as: UTF8.self))
    }
}

/// tools/lib/push_service.py run as a process on loopback: a Web Push service that checks
/// VAPID, decrypts with its own keys and records, and answers as `control` tells it.
final class PushServicePeer: @unchecked Sendable {  // every property is set once, in init
    let process: Process
    let lifeline: Pipe
    let port: Int
    var origin: String { "http://127.0.0.1:\(port)" }

    struct Subscription {
        var endpoint: String
        var id: String
        var keys: WebPushReceiverKeys
    }

    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", RepositoryRoot.path("tools/lib/push_service.py"), "--port", "0", "--stdin-lifeline"]
        // The service exits when this pipe closes, so a test that dies leaves no process behind.
        let lifeline = Pipe(), stdout = Pipe()
        process.standardInput = lifeline
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.killNow()
            throw PythonWebPush.Failed(description: "push_service.py printed no port: \(String(decoding: line, as: UTF8.self))")
        }
        self.process = process
        self.lifeline = lifeline
        self.port = port
    }

    /// SIGKILL: a child may inherit a blocked SIGTERM from the test runner.
    func stop() {
        process.killNow()
        try? lifeline.fileHandleForWriting.close()
    }

    func subscribe(applicationServerKey: String? = nil) async throws -> Subscription {
        let request: [String: String] = applicationServerKey.map { ["applicationServerKey": $0] } ?? [:]
        let answer = try await json("POST", "/subscribe", request) as? [String: Any]
        guard let endpoint = answer?["endpoint"] as? String, let keys = answer?["keys"] as? [String: String],
            let p256dh = keys["p256dh"], let auth = keys["auth"], let id = endpoint.split(separator: "/").last
        else { throw PythonWebPush.Failed(description: "POST /subscribe answered \(String(describing: answer))") }
        return Subscription(endpoint: endpoint, id: String(id), keys: try WebPushReceiverKeys(p256dh: p256dh, auth: auth))
    }

    /// What the service recorded for `id`: each message's payload (text) and headers.
    func messages(_ id: String) async throws -> [(payload: String?, headers: [String: String])] {
        guard let list = try await json("GET", "/messages/\(id)") as? [[String: Any]] else {
            throw PythonWebPush.Failed(description: "GET /messages/\(id) is not a list")
        }
        return list.map { ($0["payload"] as? String, ($0["headers"] as? [String: String]) ?? [:]) }
    }

    func control(_ id: String, _ settings: [String: Any]) async throws {
        _ = try await json("POST", "/control/\(id)", settings)
    }

    /// Every POST /push/... the service received so far.
    func pushRequests() async throws -> Int {
        guard let count = (try await json("GET", "/stats") as? [String: Any])?["push_requests"] as? Int else {
            throw PythonWebPush.Failed(description: "GET /stats has no push_requests")
        }
        return count
    }

    private func json(_ method: String, _ path: String, _ body: Any? = nil) async throws -> Any {
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) }
        let answer = try await HTTPJSON.send(
            method: method, url: origin + path, headers: [("Content-Type", "application/json")], body: bytes, timeout: 10)
        guard (200..<300).contains(answer.status) else {
            throw PythonWebPush.Failed(description: "\(method) \(path): HTTP \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return try JSONSerialization.jsonObject(with: Data(answer.body))
    }
}
