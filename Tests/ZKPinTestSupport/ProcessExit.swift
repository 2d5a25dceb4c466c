import Foundation
import Synchronization

/// Statuses taken here from zombies Foundation did not notice, by `childKey`.
private let reaped = Mutex<[String: Int32]>([:])

/// When each zombie was first seen, by `childKey`: Foundation gets two seconds to take it itself.
private let zombiesSeen = Mutex<[String: Date]>([:])

/// One launch at a time in this process (see `runAlone`).
private let launching = Mutex(())

/// Bounded waits for a child's exit. Foundation on Linux has been seen to miss a child's exit
/// under load (the child stays a zombie, `isRunning` stays true and `waitUntilExit()` never
/// returns), which stops a whole test run; these waits end, and reap such a zombie themselves.
extension Process {
    /// `run()`, one launch at a time in the test process (a launch takes milliseconds).
    /// Foundation's `run()` lists /proc/self/fd to close inherited descriptors and copies each
    /// entry as a whole `dirent`, reading past glibc's buffer: with over about 1,300 descriptors
    /// open, the last entries lie near the buffer's end and the copy can fault (seen as a
    /// SIGSEGV in `memcpy` under `Process.run()`). The test process must keep its descriptors few.
    /// It refuses to launch above 1,000, naming the count: a test that leaks descriptors then
    /// fails at once, not as a rare crash later.
    public func runAlone() throws {
        try launching.withLock { _ in
            let open = Self.openDescriptors()
            guard open <= 1_000 else { throw TooManyDescriptors(count: open, alive: LiveObjects.alive()) }
            try run()
        }
    }

    /// How many descriptors this process holds (entries are counted, never copied).
    static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return count - 3  // ".", "..", and the descriptor of the listing itself
    }

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
        // Never launched (its `run()` threw): nothing to wait for, and nothing to signal (a
        // signal to process id 0 would reach the whole process group).
        guard processIdentifier != 0 else { return -1 }
        if !isRunning {
            // Immediate now, and needed: `run()` left a run loop source that retains this object
            // (and so its pipes) until a `waitUntilExit()` drops it. Without this, every child
            // leaked its descriptors, and with over about 1,300 open, Foundation's `run()` can
            // crash reading /proc/self/fd (see `runAlone`).
            waitUntilExit()
            return terminationStatus
        }
        let key = childKey
        if let status = reaped.withLock({ $0[key] }) { return status }
        guard Self.isZombie(processIdentifier) else { return nil }
        // Foundation normally takes a child within milliseconds; it never does when a grandchild
        // still holds the descriptor it watches. Reaping earlier would race it (and a reused
        // process id would make its own wait block).
        let first = zombiesSeen.withLock { seen in
            if let at = seen[key] { return at }
            seen[key] = Date()
            return seen[key]!
        }
        guard Date().timeIntervalSince(first) >= 2 else { return nil }
        var status: Int32 = 0
        guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else {
            // Foundation reaped it in between: its own status follows shortly.
            return nil
        }
        let signal = status & 0x7f
        let result = signal == 0 ? (status >> 8) & 0xff : signal
        reaped.withLock { $0[key] = result }
        return result
    }

    /// This object and its child: process ids are reused, and so are the addresses of objects.
    private var childKey: String { "\(ObjectIdentifier(self).hashValue)-\(processIdentifier)" }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // "pid (name) S ...": the state follows the name, which may itself hold spaces.
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}

/// A launch refused because the test process holds too many descriptors (`runAlone`).
public struct TooManyDescriptors: Error, CustomStringConvertible {
    public let count: Int
    /// What tests made that is still alive (`LiveObjects`): the likely leaks.
    public let alive: [String]
    public var description: String {
        "the test process holds \(count) open descriptors: a test leaks them (Foundation's Process.run() can crash above about 1,300)"
            + (alive.isEmpty ? "" : "; still alive: " + alive.joined(separator: ", "))
    }
}
