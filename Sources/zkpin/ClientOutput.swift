import ArgumentParser
import Foundation
import Synchronization
import ZKPinClient

/// Where the client's words go: results on standard output, progress and problems on standard
/// error. With `--json` standard output carries exactly one JSON document, success or failure,
/// and everything else goes to standard error.
enum ClientOutput {
    /// Set by `run(json:)` (or by `main` for a usage error under `--json`).
    private static let jsonMode = Atomic<Bool>(false)
    /// The first document wins; a script parses standard output as one JSON value.
    private static let jsonWritten = Atomic<Bool>(false)

    static func useJSON() { jsonMode.store(true, ordering: .relaxed) }

    static var hasWrittenJSON: Bool { jsonWritten.load(ordering: .relaxed) }

    /// A result line: standard output, or standard error under `--json`. Written at once (no
    /// buffer), so a script or parent process that waits for a line, such as the confirmation
    /// code, sees it while the command waits.
    static func info(_ text: String) {
        if jsonMode.load(ordering: .relaxed) {
            note(text)
        } else {
            StandardStreams.writeOutput(text + "\n")
        }
    }

    static func note(_ text: String) {
        StandardStreams.writeError(text + "\n")
    }

    static func json(_ object: [String: Any]) {
        json(encoded: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
    }

    /// One line of JSON Lines output (`zkpin approve --watch --json`: a line per request, as
    /// it is handled). A failure still ends the output with its document.
    static func jsonLine(_ object: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        StandardStreams.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// A document already encoded (an `Encodable` report).
    static func json(encoded data: Data) {
        guard !jsonWritten.exchange(true, ordering: .relaxed) else { return }
        StandardStreams.writeOutput(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// The JSON document of a failure.
    static func jsonFailure(status: ClientStatus, message: String, exitCode: Int32, attemptsLeft: Int? = nil) {
        var object: [String: Any] = ["status": status.rawValue, "message": message, "exitCode": Int(exitCode)]
        if let attemptsLeft { object["attemptsLeft"] = attemptsLeft }
        json(object)
    }

    /// Runs a client command body: a `ClientError` becomes its message on standard error (and
    /// a JSON object with `--json`) and its exit code.
    static func run(json: Bool, _ body: () async throws(ClientError) -> Void) async throws {
        if json { useJSON() }
        do {
            try await body()
        } catch {
            note("zkpin: " + error.message)
            if json {
                jsonFailure(status: error.status, message: error.message, exitCode: error.exitCode, attemptsLeft: error.attemptsLeft)
            }
            throw ExitCode(error.exitCode)
        }
    }
}
