import Foundation
import Synchronization

/// Wakes a queue's deliverer when something was queued in this process (other instances find
/// it by polling): a signal while nobody waits is kept for the next wait.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        /// Waits whose time ran out before they were registered.
        var expired: Set<UUID> = []
    }
    private let state = Mutex(State())

    func signal() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            if s.waiters.isEmpty { s.pending = true }
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for w in waiters { w.resume() }
    }

    /// Returns at the next signal (at once when one is pending) or after `timeout`.
    func wait(timeout: Duration) async {
        let id = UUID()
        let timer = Task { [self] in
            do { try await Task.sleep(for: timeout) } catch { return }
            let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
                guard let c = s.waiters.removeValue(forKey: id) else {
                    s.expired.insert(id)
                    return nil
                }
                return c
            }
            waiter?.resume()
        }
        await withCheckedContinuation { c in
            let now = state.withLock { s -> Bool in
                if s.pending || s.expired.remove(id) != nil {
                    s.pending = false
                    return true
                }
                s.waiters[id] = c
                return false
            }
            if now { c.resume() }
        }
        timer.cancel()
        await timer.value
        state.withLock { _ = $0.expired.remove(id) }
    }
}
