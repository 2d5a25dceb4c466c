import Foundation
import Synchronization
import Testing
import ZKPinClient
import ZKPinTestSupport
import ZKPinWire

/// A real `zkpin-server serve` on a free loopback port with its own data folder (and outbox),
/// plus what a person's browser does with it: open the mailed link, type the code, show an
/// access code and poll its status.
final class TestServer: Sendable {
    let folder = TemporaryFolder("zkpin-e2e-server")
    /// The running `serve` (another one after `restart`).
    private let running: Mutex<ChildProcess>
    private let arguments: [String]
    /// `http://127.0.0.1:PORT`.
    let base: String
    let http = RPSConnection(transport: AsyncHTTPTransport(timeoutSeconds: 30))

    var data: String { folder.file("data") }
    var outbox: String { folder.file("outbox") }
    var process: ChildProcess { running.withLock { $0 } }

    init(extraArguments: [String] = []) async throws {
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let data = folder.file("data"), outbox = folder.file("outbox")
        // A port picked here rather than `--port 0`, so the server's default public URL (and
        // so the payload it shows) names the port it really listens on. Between the pick and the
        // server's bind another test's connection can take the port: then pick another.
        var attempt = 0
        while true {
            attempt += 1
            let port = try Self.freePort()
            let arguments = ["serve", "--host", "127.0.0.1", "--port", String(port), "--data", data, "--outbox", outbox] + extraArguments
            let child = try ChildProcess(Binaries.server, arguments)
            // A debug build starting while the whole suite runs on two cores has taken close to
            // a minute (its first start makes the keys and prepares the server secret).
            if let url = await child.waitForOutput(#"listening on (http://127\.0\.0\.1:[0-9]+)"#, seconds: 180) {
                running = Mutex(child)
                self.arguments = arguments
                base = url
                return
            }
            let err = child.standardError
            child.terminate()
            if attempt < 5 && err.contains("Address already in use") { continue }
            throw Failure("zkpin-server did not start: \(err.suffix(2000))")
        }
    }

    /// SIGKILL, as a crash or an out-of-memory kill would end it: nothing is shut down cleanly.
    func kill() async {
        let child = process
        child.signal(SIGKILL)
        _ = await child.waitForExit()
    }

    /// Starts `serve` again on the same port and data folder (after `kill`).
    func restart() async throws {
        for _ in 0..<20 {
            let child = try ChildProcess(Binaries.server, arguments)
            if await child.waitForOutput(#"listening on (http://127\.0\.0\.1:[0-9]+)"#, seconds: 180) != nil {
                running.withLock { $0 = child }
                return
            }
            let err = child.standardError
            child.terminate()
            // The killed server's port can take a moment to be free again.
            guard err.contains("Address already in use") else { throw Failure("zkpin-server did not start again: \(err.suffix(2000))") }
            try await Task.sleep(for: .milliseconds(500))
        }
        throw Failure("zkpin-server could not listen on \(base) again")
    }

    /// A free loopback port for a server started next (see `LoopbackPort.free`).
    static func freePort() throws -> Int {
        guard let port = LoopbackPort.free() else { throw Failure("no free loopback port between 20000 and 32000") }
        return port
    }

    func stop() {
        process.terminate()
        folder.remove()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ text: String) { description = text }
    }

    /// The activation link of the newest mail to `email`, as a path on this server.
    func activationPath(for email: String) async throws -> String {
        let regex = try NSRegularExpression(pattern: #"/mpinActivate\?[^\s"<>]+"#)
        for _ in 0..<100 {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: outbox)) ?? []
            for file in files.filter({ $0.hasSuffix(".eml") }).sorted().reversed() {
                let text = (try? String(contentsOfFile: outbox + "/" + file, encoding: .utf8)) ?? ""
                guard text.contains(email),
                    let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                    let range = Range(match.range, in: text)
                else { continue }
                return String(text[range])
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure("no activation mail to \(email) in \(outbox)")
    }

    /// Opens the mailed link's page and types `code` there; returns the status of the answer.
    @discardableResult
    func activate(email: String, code: String) async throws -> Int {
        let path = try await activationPath(for: email)
        let page = try await http.get(base + path)
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains(email))
        return try await http.send(.post, base + path, ActivateRequest(code: code)).status
    }

    /// What the login page shows: an access code and the QR payload.
    func accessNumber() async throws -> AccessNumberResponse {
        let result = try await http.transport.send(.post, base + "/rps/getAccessNumber", json: nil)
        return try JSONDecoder().decode(AccessNumberResponse.self, from: Data(result.body))
    }

    /// Polls `/rps/access` as the page does, until `authenticate` or `expired` or `seconds`.
    func pollAccess(webOTT: String, seconds: Double = 60) async throws -> AccessResponse {
        let deadline = Date().addingTimeInterval(seconds)
        var last = AccessResponse(status: .new)
        while Date() < deadline {
            let answer = try await http.send(.post, base + "/rps/access", AccessRequest(webOTT: webOTT))
            last = try answer.decode(AccessResponse.self)
            if last.status == .authenticate || last.status == .expired { return last }
            try await Task.sleep(for: .milliseconds(200))
        }
        return last
    }
}
