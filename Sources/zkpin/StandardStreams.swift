import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output and error written with write(2). FileHandle's write traps when the reader has
/// gone (EPIPE), which crashed `zkpin users | head -c1` with exit 132 and a backtrace.
enum StandardStreams {
    /// The exit status when standard output's reader closes it early: 0, like other tools in a
    /// pipeline whose reader needed no more (`zkpin users | head -1`). Documented in `zkpin --help`.
    static let closedOutputStatus: Int32 = 0

    /// Without this, SIGPIPE would end the process before write(2) can report EPIPE.
    static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes to standard output; a closed reader ends the process quietly.
    static func writeOutput(_ text: String) {
        switch writeAll(STDOUT_FILENO, text) {
        case 0: return
        case EPIPE: exit(closedOutputStatus)
        case let code:
            writeError("zkpin: cannot write to standard output: \(String(cString: strerror(code))).\n")
            exit(3)
        }
    }

    /// Writes to standard error; a failure there has nowhere to be reported, so it is ignored.
    static func writeError(_ text: String) {
        _ = writeAll(STDERR_FILENO, text)
    }

    /// 0, or the errno of the failed write.
    private static func writeAll(_ descriptor: Int32, _ text: String) -> Int32 {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
