import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for a command that runs until interrupted (`zkpin approve --watch`): a last line,
/// then exit status 0, whatever the command is doing (waiting for the server, or for an answer
/// at the terminal).
enum Interrupt {
    /// Kept for the life of the process: the source stops when released.
    nonisolated(unsafe) private static var source: DispatchSourceSignal?

    static func endCleanly(saying goodbye: String) {
        // The signal reaches the dispatch source only while its default action is off.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            ClientOutput.note("\n" + goodbye)
            exit(0)
        }
        source.resume()
        Self.source = source
    }
}
