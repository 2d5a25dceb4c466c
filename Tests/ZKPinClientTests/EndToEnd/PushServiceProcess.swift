import Foundation
import ZKPinClient
import ZKPinTestSupport

/// tools/lib/push_service.py as a child process on loopback: a Web Push service that checks
/// the server's VAPID header, decrypts each message with its own keys (Python's
/// `cryptography`, an implementation written apart from the server's) and records it.
final class PushServiceProcess: Sendable {
    let process: ChildProcess
    let port: Int
    var origin: String { "http://127.0.0.1:\(port)" }
    private let http = RPSConnection(transport: AsyncHTTPTransport(timeoutSeconds: 10))

    /// The service needs pip's `cryptography` and PyJWT (tools/test installs both).
    static let available: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import cryptography, jwt"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.runAlone()) != nil else { return false }
        return probe.exitStatus(within: 60) == 0
    }()

    /// The repository's root (this file is three folders below it).
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/lib/push_service.py").path

    struct Failure: Error, CustomStringConvertible { var description: String }

    struct Subscription {
        var endpoint: String
        var p256dh: String
        var auth: String
        var id: String { String(endpoint.split(separator: "/").last ?? "") }
    }

    init() async throws {
        // --stdin-lifeline: the service exits when its standard input closes, so a test that
        // dies leaves no process behind.
        let child = try ChildProcess("/usr/bin/env", ["python3", Self.script, "--port", "0", "--stdin-lifeline"])
        guard let port = await child.waitForOutput(#"^([0-9]+)\n"#, seconds: 60).flatMap(Int.init) else {
            child.signal(SIGKILL)
            throw Failure(description: "push_service.py printed no port: \(child.standardError.suffix(2000))")
        }
        process = child
        self.port = port
    }

    func stop() {
        process.signal(SIGKILL)
        process.closeInput()
        process.terminate()
    }

    /// A subscription as a browser's `PushSubscription.toJSON()` gives it, for the server's key.
    func subscribe(applicationServerKey: String) async throws -> Subscription {
        let answer = try await http.send(.post, origin + "/subscribe", ["applicationServerKey": applicationServerKey])
        let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        guard answer.isSuccess, let endpoint = object?["endpoint"] as? String, let keys = object?["keys"] as? [String: String],
            let p256dh = keys["p256dh"], let auth = keys["auth"]
        else { throw Failure(description: "POST /subscribe answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))") }
        return Subscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
    }

    /// The decrypted payloads recorded for `subscription`, oldest first.
    func messages(_ subscription: Subscription) async throws -> [String] {
        let answer = try await http.get(origin + "/messages/" + subscription.id)
        guard answer.status == 200, let list = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]] else {
            throw Failure(description: "GET /messages answered \(answer.status)")
        }
        return list.compactMap { $0["payload"] as? String }
    }
}
