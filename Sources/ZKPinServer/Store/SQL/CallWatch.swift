import Foundation
import Synchronization

/// The calls of one `PostgresDriver` in flight, looked at four times a second by one task of
/// the watch's own (no timer per call: a timer set and cancelled for every statement would
/// cost more than the statement under load). A call fails as soon as the database is known to
/// be down (`DatabaseDown`) or its deadline passes (`DeadlineExceeded`); one still waiting after
/// `slowAfter` seconds makes the watch call `slow` once. The operation is cancelled when it
/// loses, and the caller is answered without waiting for it.
final class CallWatch: Sendable {
    private struct Entry {
        let started: ContinuousClock.Instant
        /// Answers the caller with the watch's error, if the operation has not answered first.
        let fail: @Sendable (any Error) -> Void
        var toldSlow = false
    }

    private let calls = Mutex<[UInt64: Entry]>([:])
    private let nextID = Atomic<UInt64>(0)
    private let ticking = Mutex(false)
    let deadline: Double
    let slowAfter: Double
    let slow: @Sendable () -> Void
    let abandon: @Sendable () -> Bool

    init(deadline: Double, slowAfter: Double, slow: @escaping @Sendable () -> Void, abandon: @escaping @Sendable () -> Bool) {
        self.deadline = deadline
        self.slowAfter = slowAfter
        self.slow = slow
        self.abandon = abandon
    }

    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let race = CallRace()
        return try await withCheckedThrowingContinuation { (reply: CheckedContinuation<T, any Error>) in
            // Registered before the work starts, so a quick call never leaves an entry behind.
            let fail: @Sendable (any Error) -> Void = { error in
                if race.claim() {
                    race.task.withLock { $0?.cancel() }  // the operation
                    reply.resume(throwing: error)
                }
            }
            calls.withLock { $0[id] = Entry(started: .now, fail: fail) }
            let work = Task {
                do {
                    let value = try await operation()
                    if race.claim() { reply.resume(returning: value) }
                } catch {
                    if race.claim() { reply.resume(throwing: error) }
                }
                self.calls.withLock { _ = $0.removeValue(forKey: id) }
            }
            race.task.withLock { $0 = work }
            startTicking()
        }
    }

    /// One task looks at the calls while there are any, then ends (the next call starts one).
    private func startTicking() {
        let start = ticking.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard start else { return }
        Task { [weak self] in
            while true {
                try? await Task.sleep(for: .milliseconds(250))
                guard let self else { return }
                if self.tick() { return }
            }
        }
    }

    /// Fails the calls that lost, tells `slow` once about a slow one; true when the watch ends
    /// (nothing in flight).
    private func tick() -> Bool {
        let now = ContinuousClock.now
        let down = abandon()
        var lost: [(@Sendable (any Error) -> Void, any Error)] = []
        var newlySlow = false
        let empty = calls.withLock { calls in
            for (id, entry) in calls {
                let waited = now - entry.started
                if down {
                    lost.append((entry.fail, DatabaseDown()))
                    calls[id] = nil
                } else if waited >= .milliseconds(Int(deadline * 1000)) {
                    lost.append((entry.fail, DeadlineExceeded(seconds: deadline)))
                    calls[id] = nil
                } else if !entry.toldSlow, waited >= .milliseconds(Int(slowAfter * 1000)) {
                    calls[id]?.toldSlow = true
                    newlySlow = true
                }
            }
            if calls.isEmpty { ticking.withLock { $0 = false } }
            return calls.isEmpty
        }
        for (fail, error) in lost { fail(error) }
        if newlySlow { slow() }
        return empty
    }
}
