import Foundation
import Synchronization

/// Statuses taken here from zombies Foundation did not notice, by process id.
private let reaped = Mutex<[Int32: Int32]>([:])

/// Bounded waits for a child's exit. Foundation on Linux has been seen to miss a child's exit
/// under load (the child stays a zombie, `isRunning` stays true and `waitUntilExit()` never
/// returns), which stops a whole test run; these waits end, and reap such a zombie themselves.
extension Process {
    /// The child's status once it has ended (its exit code, or the signal that ended it), waiting
    /// at most `seconds`; nil while it still runs. Blocks the calling thread.
    public func exitStatus(within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let status = endedStatus() { return status }
            if Date() >= deadline { return nil }
            usleep(20_000)
        }
    }

    /// As `exitStatus(within:)`, without blocking a thread.
    public func exitStatus(waiting seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let status = endedStatus() { return status }
            if Date() >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGTERM, up to `grace` seconds, then SIGKILL, up to ten more: the status, or nil when the
    /// child could not be seen to end.
    @discardableResult
    public func stop(grace: Double = 10) -> Int32? {
        if let status = endedStatus() { return status }
        kill(processIdentifier, SIGTERM)
        if let status = exitStatus(within: grace) { return status }
        kill(processIdentifier, SIGKILL)
        return exitStatus(within: 10)
    }

    /// SIGKILL and a bounded wait.
    @discardableResult
    public func killNow() -> Int32? {
        if let status = endedStatus() { return status }
        kill(processIdentifier, SIGKILL)
        return exitStatus(within: 10)
    }

    /// The status when the child has ended: Foundation's, or, when Foundation has not noticed a
    /// zombie, the one `waitpid` takes from it here.
    private func endedStatus() -> Int32? {
        if !isRunning { return terminationStatus }
        if let status = reaped.withLock({ $0[processIdentifier] }) { return status }
        guard Self.isZombie(processIdentifier) else { return nil }
        var status: Int32 = 0
        guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else {
            // Foundation reaped it in between: its own status follows shortly.
            return nil
        }
        let signal = status & 0x7f
        let result = signal == 0 ? (status >> 8) & 0xff : signal
        reaped.withLock { $0[processIdentifier] = result }
        return result
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // "pid (name) S ...": the state follows the name, which may itself hold spaces.
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
