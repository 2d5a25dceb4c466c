import Foundation
import ZKPinProtocol

/// Verifies the pass-2 logins that wait at the same moment together
/// (`MPinSuite.serverVerifyBatch`: one product of two pairings for a batch that verifies,
/// bisection to the failing logins otherwise, each login getting exactly the verdict and PIN
/// error of single verification). It adds no wait: a login that finds the verifier idle is
/// verified at once, alone (a batch of one is the single verification); the logins that
/// arrive while a batch is being verified form the next batch. The pairings run on one
/// thread of their own, off Swift's cooperative pool and the event loops.
public final class LoginBatcher: @unchecked Sendable {
    let suite: any MPinSuite
    let serverSecret: PreparedServerSecret
    /// The most logins verified together (a bisection's cost grows with the batch).
    let maxBatch: Int
    let condition = NSCondition()
    var pending: [(login: ServerVerifyInput, reply: CheckedContinuation<ServerVerification, Never>)] = []
    var worker: Thread?
    /// Batch sizes verified so far, for /metrics.
    let onBatch: @Sendable (Int) -> Void

    public init(
        suite: any MPinSuite, serverSecret: PreparedServerSecret, maxBatch: Int = 256,
        onBatch: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.suite = suite
        self.serverSecret = serverSecret
        self.maxBatch = max(1, maxBatch)
        self.onBatch = onBatch
    }

    /// The verdict of `serverVerify` for this login.
    public func verify(_ login: ServerVerifyInput) async -> ServerVerification {
        await withCheckedContinuation { reply in
            condition.lock()
            pending.append((login, reply))
            if worker == nil {
                let thread = Thread { self.run() }
                thread.name = "zkpin-verify"
                worker = thread
                thread.start()
            }
            condition.signal()
            condition.unlock()
        }
    }

    /// The worker: takes everything waiting (up to maxBatch), verifies it, repeats; ends
    /// after a second with nothing to do (the next login starts a new one).
    func run() {
        while true {
            condition.lock()
            while pending.isEmpty {
                if !condition.wait(until: Date().addingTimeInterval(1)), pending.isEmpty {
                    worker = nil
                    condition.unlock()
                    return
                }
            }
            let batch = Array(pending.prefix(maxBatch))
            pending.removeFirst(batch.count)
            condition.unlock()
            let verdicts = suite.serverVerifyBatch(batch.map(\.login), serverSecret: serverSecret)
            onBatch(batch.count)
            for (item, verdict) in zip(batch, verdicts) { item.reply.resume(returning: verdict) }
        }
    }
}
