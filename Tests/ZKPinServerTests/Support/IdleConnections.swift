import Foundation
import ZKPinTestSupport

/// Another process (python3) holding `count` idle connections to 127.0.0.1:`port`, from the
/// loopback address `source` (127.0.0.0/8 is all loopback on Linux, so one machine can be
/// several hosts), so that the test process itself keeps few descriptors (Foundation's
/// `Process` in other tests running meanwhile misbehaves with descriptors above 1,024).
/// With `sendingAByte`, each connection sends one byte of a request head after connecting, as an
/// attacker keeping connections busy does.
final class IdleConnections: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private(set) var opened = 0

    static let script = """
        import resource, select, socket, sys
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        port, count, source, byte = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
        conns = []
        for _ in range(count):
            try:
                c = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
                if byte:
                    c.send(b"G")
                conns.append(c)
            except OSError:
                break
        print("opened", len(conns), flush=True)
        for line in sys.stdin:
            poller = select.poll()
            for c in conns:
                poller.register(c, select.POLLIN)
            readable = {fd for fd, _ in poller.poll(0)}
            # The server never writes to a connection it holds idle: one it wrote to was
            # refused (and is being closed) or closed.
            closed = sum(1 for c in conns if c.fileno() in readable)
            print("open", len(conns) - closed, flush=True)
        """

    init(port: Int, count: Int, source: String = "127.0.0.1", sendingAByte: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, "\(port)", "\(count)", source, sendingAByte ? "1" : "0"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        opened = Int(readLine().split(separator: " ").last ?? "") ?? 0
    }

    /// How many of the connections the server has not closed.
    func stillOpen() -> Int {
        input.fileHandleForWriting.write(Data("check\n".utf8))
        return Int(readLine().split(separator: " ").last ?? "") ?? -1
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.stop()
    }

    private var buffered = ""
    private func readLine() -> String {
        while !buffered.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            buffered += String(decoding: data, as: UTF8.self)
        }
        let line = buffered.prefix { $0 != "\n" }
        buffered = String(buffered.dropFirst(line.count + 1))
        return String(line)
    }
}
