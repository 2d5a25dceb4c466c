import Foundation
import ZKPinProtocol

/// Verifies the pass-2 logins that wait at the same moment together
/// (`MPinSuite.serverVerifyBatch`: one product of two pairings for a batch that verifies,
/// bisection to the failing logins otherwise, each login getting exactly the verdict and PIN
/// error of single verification). A login that finds the verifier idle after a batch of one
/// (no load) is verified at once, alone (a batch of one is the single verification); the
/// logins that arrive while a batch is being verified form the next batch. Under load (the
/// last batch verified several), a batch also waits up to `maxWait` for more to join it: the
/// pair of pairings is the bulk of a batch's cost, so larger batches cost each login less
/// (BN254CX on one pinned core: batches of 8 -> 15 logins with 2 ms, 3-12% less server CPU
/// per login; docs/PERFORMANCE.md). The pairings run on one thread of their own, off the
/// event loops; every other pairing of the server (approval signatures, a login's retry with
/// the previous day's permit) goes to the same thread through `perform`.
public final class LoginBatcher: @unchecked Sendable {
    let suite: any MPinSuite
    let serverSecret: PreparedServerSecret
    /// The most logins verified together (a bisection's cost grows with the batch).
    let maxBatch: Int
    /// Seconds a batch may wait for more logins while the last batch had several; 0: never.
    let maxWait: Double
    let condition = NSCondition()
    var pending: [(login: ServerVerifyInput, reply: CheckedContinuation<ServerVerification, Never>)] = []
    /// Other pairing work waiting for the worker (each resumes its own caller).
    var jobs: [() -> Void] = []
    var worker: Thread?
    /// The worker waits for its batch to fill: only a full batch wakes it (not every login).
    var collecting = false
    /// Batch sizes verified so far, for /metrics.
    let onBatch: @Sendable (Int) -> Void

    public init(
        suite: any MPinSuite, serverSecret: PreparedServerSecret, maxBatch: Int, maxWait: Double = 0,
        onBatch: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.suite = suite
        self.serverSecret = serverSecret
        self.maxBatch = max(1, maxBatch)
        self.maxWait = max(0, maxWait)
        self.onBatch = onBatch
    }

    /// The verdict of `serverVerify` for this login.
    public func verify(_ login: ServerVerifyInput) async -> ServerVerification {
        await withCheckedContinuation { reply in
            condition.lock()
            pending.append((login, reply))
            startWorkerIfNeeded()
            if !collecting || pending.count >= maxBatch { condition.signal() }
            condition.unlock()
        }
    }

    /// Runs `work` (a pairing, a DVS verification) on the worker thread, between batches, so
    /// that no pairing ever runs on an event loop or a task-pool thread.
    public func perform<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (reply: CheckedContinuation<T, Never>) in
            condition.lock()
            jobs.append { reply.resume(returning: work()) }
            startWorkerIfNeeded()
            condition.signal()
            condition.unlock()
        }
    }

    /// Whether the calling thread is the worker (for the check that pairings run nowhere else).
    public static var onWorker: Bool { Thread.current.name == workerName }
    static let workerName = "zkpin-verify"

    /// Called with `condition` locked.
    private func startWorkerIfNeeded() {
        guard worker == nil else { return }
        let thread = Thread { self.run() }
        thread.name = Self.workerName
        worker = thread
        thread.start()
    }

    /// Whether the next batch waits for more logins: only under load (the last batch verified
    /// several), while it is not full, and when waiting is on.
    static func waitsForMore(lastBatch: Int, pending: Int, maxBatch: Int, maxWait: Double) -> Bool {
        maxWait > 0 && lastBatch > 1 && pending < maxBatch
    }

    /// The worker: takes everything waiting (up to maxBatch), verifies it, repeats; ends
    /// after a second with nothing to do (the next login starts a new one).
    func run() {
        var lastBatch = 0
        while true {
            condition.lock()
            while pending.isEmpty && jobs.isEmpty {
                if !condition.wait(until: Date().addingTimeInterval(1)), pending.isEmpty, jobs.isEmpty {
                    worker = nil
                    condition.unlock()
                    return
                }
            }
            if !jobs.isEmpty {
                let work = jobs
                jobs.removeAll()
                condition.unlock()
                for job in work { job() }
                continue
            }
            if Self.waitsForMore(lastBatch: lastBatch, pending: pending.count, maxBatch: maxBatch, maxWait: maxWait) {
                collecting = true
                let deadline = Date().addingTimeInterval(maxWait)
                while pending.count < maxBatch, condition.wait(until: deadline) {}
                collecting = false
            }
            let batch = Array(pending.prefix(maxBatch))
            lastBatch = batch.count
            pending.removeFirst(batch.count)
            condition.unlock()
            let verdicts = suite.serverVerifyBatch(batch.map(\.login), serverSecret: serverSecret)
            onBatch(batch.count)
            for (item, verdict) in zip(batch, verdicts) { item.reply.resume(returning: verdict) }
        }
    }
}
