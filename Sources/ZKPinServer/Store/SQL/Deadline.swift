import Foundation
import Synchronization

/// A database call that did not answer in time: the request answers 503 instead of waiting
/// with the person.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var seconds: Double
    var description: String { "the database did not answer within \(Int(seconds)) seconds" }
}

/// A call made, or still waiting, while the database is known to be down (`PostgresRecovery`).
struct DatabaseDown: Error, CustomStringConvertible {
    var description: String { "the database is down; waiting for it to come back" }
}

/// Who answers a call first, the operation or what watches it: the loser's answer is dropped.
/// `task` is the task that side cancels when it wins (the operation's, or a timer).
final class CallRace: Sendable {
    let settled = Mutex(false)
    let task = Mutex<Task<Void, Never>?>(nil)

    func claim() -> Bool {
        settled.withLock { done in
            if done { return false }
            done = true
            return true
        }
    }
}

/// One-off deadlines for rare calls (a connection probe, `/ready` on SQLite); the driver's own
/// calls are watched by `CallWatch` instead of a timer each.
enum Deadline {
    /// `operation`'s result, or `DeadlineExceeded` after `seconds`, whichever comes first; the
    /// operation is cancelled when the deadline wins, and this returns without waiting for it.
    static func run<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = CallRace()
        return try await withCheckedThrowingContinuation { (reply: CheckedContinuation<T, any Error>) in
            let work = Task {
                do {
                    let value = try await operation()
                    if race.claim() { reply.resume(returning: value) }
                } catch {
                    if race.claim() { reply.resume(throwing: error) }
                }
                race.task.withLock { $0?.cancel() }  // the timer
            }
            let countdown = Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                if !Task.isCancelled, race.claim() {
                    work.cancel()
                    reply.resume(throwing: DeadlineExceeded(seconds: seconds))
                }
            }
            race.task.withLock { $0 = countdown }
        }
    }
}
