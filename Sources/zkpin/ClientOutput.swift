import ArgumentParser
import Foundation
import ZKPinClient

/// Where the client's words go: results on standard output, progress and problems on standard
/// error, and with `--json` one JSON object on standard output.
enum ClientOutput {
    /// Written at once (not through print's buffer), so a script or parent process that
    /// waits for a line, such as the confirmation code, sees it while the command waits.
    static func info(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func json(_ object: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        info(String(decoding: data, as: UTF8.self))
    }

    /// Runs a client command body: a `ClientError` becomes its message on standard error (and
    /// a JSON object with `--json`) and its exit code.
    static func run(json: Bool, _ body: () async throws(ClientError) -> Void) async throws {
        do {
            try await body()
        } catch {
            note("zkpin: " + error.message)
            if json {
                self.json(["status": error.status.rawValue, "message": error.message, "exitCode": Int(error.exitCode)])
            }
            throw ExitCode(error.exitCode)
        }
    }
}
