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

enum Deadline {
    /// Who answers first: the operation or the watch on it.
    private final class Race: Sendable {
        let settled = Mutex(false)
        /// Cancelled when the operation ends first, so the watch holds nothing for long.
        let watch = Mutex<Task<Void, Never>?>(nil)

        func claim() -> Bool {
            settled.withLock { done in
                if done { return false }
                done = true
                return true
            }
        }
    }

    /// `operation`'s result, or an error as soon as one of these comes first: `seconds` pass
    /// (`DeadlineExceeded`), or `abandon` says the database is down (`DatabaseDown`, looked at
    /// every quarter of a second). A call still waiting after `slowAfter` seconds calls `slow`
    /// once (which may find the database down). The operation is cancelled when it loses, and
    /// this returns without waiting for it (postgres-nio's pool may hold a waiting request
    /// until its own connect timeout).
    static func run<T: Sendable>(
        seconds: Double, slowAfter: Double = .infinity, slow: @escaping @Sendable () -> Void = {},
        abandon: @escaping @Sendable () -> Bool = { false },
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race()
        return try await withCheckedThrowingContinuation { (reply: CheckedContinuation<T, any Error>) in
            let work = Task {
                do {
                    let value = try await operation()
                    if race.claim() { reply.resume(returning: value) }
                } catch {
                    if race.claim() { reply.resume(throwing: error) }
                }
                race.watch.withLock { $0?.cancel() }
            }
            let watch = Task {
                let start = ContinuousClock.now
                var toldSlow = false
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    if Task.isCancelled { return }
                    let waited =
                        Double((ContinuousClock.now - start).components.seconds)
                        + Double((ContinuousClock.now - start).components.attoseconds) / 1e18
                    let failure: (any Error)? =
                        abandon() ? DatabaseDown() : waited >= seconds ? DeadlineExceeded(seconds: seconds) : nil
                    if let failure {
                        if race.claim() {
                            work.cancel()
                            reply.resume(throwing: failure)
                        }
                        return
                    }
                    if !toldSlow && waited >= slowAfter {
                        toldSlow = true
                        slow()
                    }
                }
            }
            race.watch.withLock { $0 = watch }
        }
    }
}
