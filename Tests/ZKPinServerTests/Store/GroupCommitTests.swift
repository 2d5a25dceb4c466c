import Foundation
import Testing

@testable import ZKPinServer

/// SQLite's writes, committed in groups on a real file: each concurrent write commits or fails
/// on its own, a failed one leaves nothing behind, and every commit is durable
/// (`synchronous = FULL` on the writer).
@Suite struct GroupCommitTests {
    struct Refused: Error {}

    @Test func theWriterCommitsDurably() async throws {
        let driver = try GRDBDriver(path: try TempDir.make() + "/store.sqlite")
        let row = try #require(try await driver.writeOne("PRAGMA synchronous"))
        #expect(try row.int("synchronous") == 2)  // FULL
    }

    @Test func concurrentWritesCommitOrFailEachOnItsOwn() async throws {
        let path = try TempDir.make() + "/store.sqlite"
        let driver = try GRDBDriver(path: path)
        _ = try await driver.write("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        _ = try await driver.write("INSERT INTO t (k, v) VALUES (\(-1), \("taken"))")
        // 120 writers at once: every 10th writes, then throws; every 10th + 5 breaks the
        // primary key after a first insert; the rest insert two rows each.
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for i in 0..<120 {
                group.addTask {
                    do {
                        let value = try await driver.transaction { tx in
                            _ = try tx.run("INSERT INTO t (k, v) VALUES (\(i), \("first"))")
                            if i % 10 == 0 { throw Refused() }
                            let second = i % 10 == 5 ? -1 : 1000 + i
                            _ = try tx.run("INSERT INTO t (k, v) VALUES (\(second), \("second"))")
                            return i
                        }
                        return (i, value == i)
                    } catch {
                        return (i, false)
                    }
                }
            }
            var outcomes: [Int: Bool] = [:]
            for await (i, ok) in group { outcomes[i] = ok }
            return outcomes
        }
        for i in 0..<120 {
            #expect(outcomes[i] == (i % 10 != 0 && i % 10 != 5), "writer \(i)")
        }
        // What was committed, read through a fresh driver on the same file.
        let reopened = try GRDBDriver(path: path)
        let keys = Set(try await reopened.read("SELECT k FROM t").map { try $0.int("k") })
        let committed: [Int] = (0..<120).filter { $0 % 10 != 0 && $0 % 10 != 5 }
        let expected = Set([-1] + committed + committed.map { 1000 + $0 })
        #expect(keys.subtracting(expected).sorted() == [], "committed but should not be")
        #expect(expected.subtracting(keys).sorted() == [], "lost")
    }

    @Test func aSingleWriteIsCommittedWhenItReturns() async throws {
        let path = try TempDir.make() + "/store.sqlite"
        let driver = try GRDBDriver(path: path)
        _ = try await driver.write("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        _ = try await driver.write("INSERT INTO t (k) VALUES (\(7))")
        let reopened = try GRDBDriver(path: path)
        #expect(try await reopened.read("SELECT k FROM t").map { try $0.int("k") } == [7])
    }
}
