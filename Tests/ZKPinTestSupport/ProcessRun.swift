import Foundation

/// A command run to its end with its output collected: what the CLI tests check.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var out: String
    public var err: String

    /// Runs `executable` with `arguments` and the test's environment without any `ZKPIN_`
    /// variable (so the developer's own settings do not leak in), plus `environment`.
    /// As `run`, on a thread of its own: an async test waiting for a child must not hold one of
    /// the two cooperative threads, on which its in-process servers and the stores' deadlines
    /// run (held, a PostgreSQL call was declared unanswered after 15 s).
    public static func runOffPool(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRun {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try run(executable, arguments, environment: environment) }) }.start()
        }
    }

    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ZKPIN_") }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.runAlone()
        // Read both pipes to the end before waiting: a full pipe would block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        return ProcessRun(
            status: process.exitStatus(within: 60) ?? process.stop() ?? -1, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData, as: UTF8.self))
    }
}
