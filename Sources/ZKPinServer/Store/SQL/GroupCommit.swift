import GRDB
import Synchronization

/// Durable commits for SQLite at the price of one fsync per batch rather than one per write.
///
/// The writer connection runs with `synchronous = FULL`, so a commit has reached the disk when
/// it returns (GRDB's WAL default, NORMAL, can lose the last commits on power loss: a wrong
/// PIN that was counted, a code that was used). Writes that arrive while a commit is under way
/// wait, and the next commit takes all of them: one SQLite transaction, each write in its own
/// savepoint, so a write that throws is rolled back alone and the others still commit. Every
/// caller is answered only after the commit that holds its write, and all of them get the
/// error when that commit fails. Under no load a batch is one write, as before.
final class GroupCommit: Sendable {
    private let pool: DatabasePool
    private let state = Mutex(State())

    private struct State {
        var waiting: [Job] = []
        var committing = false
    }

    /// One write: its body, run in a savepoint of the batch's transaction (`run` throws only
    /// what must end the whole batch), and what to tell its caller once the batch is committed
    /// (or not).
    private struct Job: Sendable {
        let run: @Sendable (Database) throws -> Void
        let finish: @Sendable ((any Error)?) -> Void
    }

    init(pool: DatabasePool) throws {
        self.pool = pool
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
    }

    /// Runs `body` in the next batch; returns its value once that batch is committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let job = Job(
                run: { db in
                    let result = try Self.inSavepoint(db, body)
                    outcome.withLock { $0 = result }
                },
                finish: { commitError in
                    if let commitError {
                        continuation.resume(throwing: commitError)
                    } else {
                        // A job the batch never reached (its transaction had ended) has no outcome.
                        continuation.resume(with: outcome.withLock { $0 } ?? .failure(GroupCommitError.notRun))
                    }
                })
            let startsCommitting = state.withLock { state in
                state.waiting.append(job)
                guard !state.committing else { return false }
                state.committing = true
                return true
            }
            if startsCommitting { Task { await self.commitWaiting() } }
        }
    }

    /// Commits batches until no write waits.
    private func commitWaiting() async {
        while true {
            let batch = state.withLock { state in
                let batch = state.waiting
                state.waiting = []
                if batch.isEmpty { state.committing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                try await pool.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        // SQLite ends a transaction by itself on some errors (full disk, I/O):
                        // the writes after that are not run, so none commits on its own.
                        for job in batch where db.isInsideTransaction { try job.run(db) }
                        return .commit
                    }
                }
                for job in batch { job.finish(nil) }
            } catch {
                for job in batch { job.finish(error) }
            }
        }
    }

    /// The body's value or error, its writes undone on error. Throws (ending the batch) only
    /// when they could not be undone, so that no part of a failed write is committed.
    private static func inSavepoint<T>(_ db: Database, _ body: (Database) throws -> T) throws -> Result<T, any Error> {
        // Prepared once per connection: the two run with every write.
        try db.cachedStatement(sql: "SAVEPOINT write").execute()
        do {
            let value = try body(db)
            try db.cachedStatement(sql: "RELEASE write").execute()
            return .success(value)
        } catch {
            if db.isInsideTransaction {
                try db.execute(sql: "ROLLBACK TO write")
                try db.execute(sql: "RELEASE write")
            }
            return .failure(error)
        }
    }
}

enum GroupCommitError: Error, CustomStringConvertible {
    case notRun
    var description: String { "the database ended the transaction before this write ran" }
}
