import Foundation
import Logging
import ZKPinTestSupport

@testable import ZKPinServer

/// A `zkpin-server` child process (built next to the test bundle), for the tests that need a
/// real process: SIGKILL and restart, D-TA 2 on its own.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let output = Pipe()
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    static var binary: URL {
        // The test runner lives in the build products folder, like the executable.
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("zkpin-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return runner.deletingLastPathComponent().appendingPathComponent("zkpin-server")
    }

    struct StartFailure: Error, CustomStringConvertible { var description: String }

    /// With `errors`, standard error goes there (to read why a start failed). With
    /// `descriptorLimit`, the server starts under that soft limit of open files.
    init(_ arguments: [String], port: Int, errors: Pipe? = nil, descriptorLimit: Int? = nil) throws {
        self.port = port
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -Sn \(descriptorLimit) && exec \"$0\" \"$@\"", Self.binary.path] + arguments
        } else {
            process.executableURL = Self.binary
            process.arguments = arguments
        }
        process.standardOutput = output
        process.standardError = errors ?? FileHandle.nullDevice
        try process.runAlone()
    }

    /// Waits until the server prints its listening line; returns what it printed until then.
    @discardableResult
    func waitUntilListening() async throws -> String {
        let handle = output.fileHandleForReading
        let text: String = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var seen = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { continuation.resume(throwing: StartFailure(description: "exited: \(seen)")); return }
                    seen += String(decoding: data, as: UTF8.self)
                    if seen.contains("listening on") { continuation.resume(returning: seen); return }
                }
            }
        }
        return text
    }

    func kill() { process.killNow() }

    func stop() { process.stop() }

    deinit { kill() }

    /// A free loopback port for a server started next (see `LoopbackPort.free`).
    static func freePort() -> Int { LoopbackPort.free() ?? 0 }
}

/// A relying party served in this process on a real loopback socket.
struct LiveServer {
    let harness: Harness
    let port: Int
    let task: Task<Void, any Error>
    var transport: SocketTransport { SocketTransport(base: "http://127.0.0.1:\(port)") }

    static func start(limits: ServerLimits = ServerLimits(ServeOptions()), _ configure: @escaping (inout ServeOptions) -> Void = { _ in })
        async throws
        -> LiveServer
    {
        let port = ServerProcess.freePort()
        let h = try await Harness.make { o in
            o.port = port
            o.publicURL = "http://127.0.0.1:\(port)"
            configure(&o)
        }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "live")
        logger.logLevel = .warning
        let router = h.router
        let task = Task {
            try await ZKPinServerApp.serve(router: router, host: "127.0.0.1", port: port, logger: logger, limits: limits) { p in continuation.yield(p)
            }
        }
        var it = stream.makeAsyncIterator()
        let bound = await it.next() ?? port
        return LiveServer(harness: h, port: bound, task: task)
    }

    func stop() { task.cancel() }
}
