/// What the store asks of a database: run one statement, or several in one transaction. Two
/// drivers implement it (SQLite through GRDB, PostgreSQL through postgres-nio); the store's SQL
/// is written once above them (docs/developer.md, "Storage").
public protocol SQLDriver: Sendable {
    var dialect: SQLDialect { get }
    /// Runs one statement that only reads.
    func read(_ statement: SQLStatement) async throws -> [SQLRow]
    /// Runs one statement that writes, committed when this returns.
    func write(_ statement: SQLStatement) async throws -> [SQLRow]
    /// Runs the statements of `body` in one transaction: committed when `body` returns,
    /// rolled back when it throws. `body` is synchronous and runs on a thread of the
    /// driver's, so a transaction is never held open across an await.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLTransaction) throws -> T) async throws -> T
    /// Whether the database answers a trivial statement now, within a couple of seconds
    /// (`/ready`).
    func isReachable() async -> Bool
}

extension SQLDriver {
    public func isReachable() async -> Bool {
        let driver = self
        return (try? await Deadline.run(seconds: 2) { try await driver.read("SELECT 1 AS one") }) != nil
    }
}

/// The statements of one transaction.
public protocol SQLTransaction {
    func run(_ statement: SQLStatement) throws -> [SQLRow]
}

extension SQLTransaction {
    func one(_ statement: SQLStatement) throws -> SQLRow? { try run(statement).first }
}

extension SQLDriver {
    func readOne(_ statement: SQLStatement) async throws -> SQLRow? { try await read(statement).first }
    func writeOne(_ statement: SQLStatement) async throws -> SQLRow? { try await write(statement).first }
}

/// Where the two databases' SQL differs, as data. Everything else is written once.
public struct SQLDialect: Sendable {
    public enum Name: String, Sendable { case sqlite, postgres }
    public var name: Name
    /// The column that orders rows inserted in the same second (SQLite's rowid, a PostgreSQL
    /// identity column).
    public var insertionOrder: String
    /// What a subquery that picks one row to take adds so that concurrent takers never pick
    /// the same one (PostgreSQL's row locks; SQLite has one writer at a time).
    public var skipTaken: String
    /// What a SELECT adds to lock the rows it reads until the transaction ends (PostgreSQL's
    /// `FOR UPDATE`; SQLite's one writer at a time needs nothing).
    public var lockRow: String
    /// PostgreSQL runs the login's hot paths as single statements with writable CTEs
    /// (`SingleStatementPaths`); SQLite, which has none, runs them as transactions.
    public var hasWritableCTEs: Bool

    // The schema's words (`SchemaChange`): the types and column forms that differ.
    /// A 64-bit integer column.
    public var integer: String
    /// A byte-string column.
    public var bytes: String
    /// A boolean column, and its false value.
    public var boolean: String
    public var `false`: String
    /// The key column that numbers rows as they are inserted.
    public var autoIncrementKey: String
    /// What a table whose rows are read in insertion order adds to its columns (PostgreSQL's
    /// identity column; SQLite has the rowid).
    public var insertionOrderColumn: String

    public static let sqlite = SQLDialect(
        name: .sqlite, insertionOrder: "rowid", skipTaken: "", lockRow: "", hasWritableCTEs: false,
        integer: "INTEGER", bytes: "BLOB", boolean: "INTEGER", false: "0", autoIncrementKey: "INTEGER PRIMARY KEY AUTOINCREMENT",
        insertionOrderColumn: "")
    public static let postgres = SQLDialect(
        name: .postgres, insertionOrder: "seq", skipTaken: "FOR UPDATE SKIP LOCKED", lockRow: "FOR UPDATE", hasWritableCTEs: true,
        integer: "BIGINT", bytes: "BYTEA", boolean: "BOOLEAN", false: "false", autoIncrementKey: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
        insertionOrderColumn: ", seq BIGINT GENERATED ALWAYS AS IDENTITY")
}
