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

/// One-off deadlines for rare calls (a connection probe, `/ready` on SQLite); the driver's own
/// calls are watched by `CallWatch` instead of a timer each.
enum Deadline {
    /// Who answers first: the operation or the timer.
    private final class Race: Sendable {
        let settled = Mutex(false)
        /// Cancelled when the operation ends first, so the timer holds nothing for long.
        let timer = Mutex<Task<Void, Never>?>(nil)

        func claim() -> Bool {
            settled.withLock { done in
                if done { return false }
                done = true
                return true
            }
        }
    }

    /// `operation`'s result, or `DeadlineExceeded` after `seconds`, whichever comes first; the
    /// operation is cancelled when the deadline wins, and this returns without waiting for it.
    static func run<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = Race()
        return try await withCheckedThrowingContinuation { (reply: CheckedContinuation<T, any Error>) in
            let work = Task {
                do {
                    let value = try await operation()
                    if race.claim() { reply.resume(returning: value) }
                } catch {
                    if race.claim() { reply.resume(throwing: error) }
                }
                race.timer.withLock { $0?.cancel() }
            }
            let countdown = Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                if !Task.isCancelled, race.claim() {
                    work.cancel()
                    reply.resume(throwing: DeadlineExceeded(seconds: seconds))
                }
            }
            race.timer.withLock { $0 = countdown }
        }
    }
}
