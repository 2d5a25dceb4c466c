import Foundation
import Synchronization
import ZKPinTestSupport

/// A child process whose standard output and error are collected as they arrive, so a test can
/// wait for a line (the server's port, the confirmation code) while the child runs.
final class ChildProcess: Sendable {
    private let process: Process
    private let input: Pipe
    private let output = OutputBuffer()

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // Never ask the person running the tests anything on their terminal.
        env["ZKPIN_NONINTERACTIVE"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let input = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        self.process = process
        self.input = input
        out.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            // Empty means end of file: stop, or the handler would fire again and again.
            guard !data.isEmpty else { handle.readabilityHandler = nil; return }
            let text = String(decoding: data, as: UTF8.self)
            output.state.withLock { $0.out += text }
        }
        err.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            // Empty means end of file: stop, or the handler would fire again and again.
            guard !data.isEmpty else { handle.readabilityHandler = nil; return }
            let text = String(decoding: data, as: UTF8.self)
            output.state.withLock { $0.err += text }
        }
        try process.runAlone()
    }

    var standardOutput: String { output.state.withLock { $0.out } }
    var standardError: String { output.state.withLock { $0.err } }
    var isRunning: Bool { process.exitStatus(within: 0) == nil }

    func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits until standard output matches `pattern` (a regular expression) and returns the
    /// first capture group; nil when the child exits or `seconds` pass first.
    func waitForOutput(_ pattern: String, seconds: Double = 180) async -> String? {
        let regex = try! NSRegularExpression(pattern: pattern)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = standardOutput
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
                return Range(range, in: text).map { String(text[$0]) }
            }
            if !isRunning && standardOutput == text { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Waits for the exit (stopping the child after `seconds`) and returns its status; -1 when
    /// the child could not be seen to end even after SIGKILL.
    func waitForExit(seconds: Double = 120) async -> Int32 {
        var status = await process.exitStatus(waiting: seconds)
        if status == nil { status = process.stop() }
        // Let the readability handlers take the last bytes.
        try? await Task.sleep(for: .milliseconds(100))
        return status ?? -1
    }

    /// SIGTERM, then SIGKILL, each with a bounded wait.
    func terminate() { process.stop() }

    /// Sends `number` (SIGINT for a Ctrl-C, SIGKILL for a crash) without waiting.
    func signal(_ number: Int32) {
        if isRunning { kill(process.processIdentifier, number) }
    }

    /// Waits until standard error matches `pattern`; false when the child exits or `seconds`
    /// pass first.
    func waitForError(_ pattern: String, seconds: Double = 120) async -> Bool {
        let regex = try! NSRegularExpression(pattern: pattern)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = standardError
            if regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { return true }
            if !isRunning && standardError == text { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

/// What a child wrote so far; a class so the pipes' handlers can share it.
final class OutputBuffer: Sendable {
    let state = Mutex((out: "", err: ""))
}

/// One finished `zkpin` run.
struct CLIResult {
    var status: Int32
    var out: String
    var err: String
}

/// Runs `zkpin ARGS` to the end with `input` on standard input.
func runClient(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> CLIResult {
    let child = try ChildProcess(Binaries.client, arguments, environment: environment)
    child.write(input)
    child.closeInput()
    let status = await child.waitForExit()
    return CLIResult(status: status, out: child.standardOutput, err: child.standardError)
}
