import Foundation

@testable import ZKPinServer

/// A database that fails on demand: one switch at the driver, under every store operation.
/// While `failing` is set, every statement and transaction throws; otherwise it goes to the
/// real driver underneath. The storage-failure rule (503 with Retry-After, never a 4xx that
/// blames the person) is tested through it.
final class FailingDriver: SQLDriver, @unchecked Sendable {  // `isFailing` is guarded by `lock`
    struct Outage: Error, CustomStringConvertible { var description: String { "the test switched the database off" } }
    let inner: any SQLDriver
    private let lock = NSLock()
    private var isFailing = false

    init(_ inner: any SQLDriver) { self.inner = inner }

    /// A store over `store`'s database that fails while the returned driver's switch is on.
    static func wrapping(_ store: Store) -> (Store, FailingDriver) {
        let driver = FailingDriver(store.driver)
        return (Store(driver: driver), driver)
    }

    var failing: Bool {
        get { lock.withLock { isFailing } }
        set { lock.withLock { isFailing = newValue } }
    }

    func check() throws { if failing { throw Outage() } }

    var dialect: SQLDialect { inner.dialect }

    func read(_ statement: SQLStatement) async throws -> [SQLRow] {
        try check()
        return try await inner.read(statement)
    }

    func write(_ statement: SQLStatement) async throws -> [SQLRow] {
        try check()
        return try await inner.write(statement)
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLTransaction) throws -> T) async throws -> T {
        try check()
        return try await inner.transaction(body)
    }
}
