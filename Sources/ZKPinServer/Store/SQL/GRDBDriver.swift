import Foundation
import GRDB

/// The embedded default database: one SQLite file in WAL mode through GRDB's DatabasePool
/// (readers run beside the one writer). Every statement is prepared once per connection.
/// Writes are durable and committed in groups (`GroupCommit`).
public final class GRDBDriver: SQLDriver {
    let pool: DatabasePool
    let writer: GroupCommit
    public var dialect: SQLDialect { .sqlite }

    /// Opens (creating when missing) the database at `path` and brings it up to `schema`.
    public init(path: String, schema: [SchemaChange]) throws {
        var config = Configuration()
        config.busyMode = .timeout(10)
        // 0600 before SQLite opens it: SQLite creates the -wal and -shm files with the
        // database file's mode, whatever the folder's mode and the umask.
        PrivateFile.prepare(path)
        pool = try DatabasePool(path: path, configuration: config)
        try SQLiteMigrations.migrator(schema).migrate(pool)
        writer = try GroupCommit(pool: pool)
    }

    public func read(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await pool.read { db in try Self.run(db, statement) }
    }

    public func write(_ statement: SQLStatement) async throws -> [SQLRow] {
        try await writer.write { db in try Self.run(db, statement) }
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLTransaction) throws -> T) async throws -> T {
        try await writer.write { db in try body(Transaction(db: db)) }
    }

    struct Transaction: SQLTransaction {
        let db: Database
        func run(_ statement: SQLStatement) throws -> [SQLRow] { try GRDBDriver.run(db, statement) }
    }

    static func run(_ db: Database, _ statement: SQLStatement) throws -> [SQLRow] {
        let prepared = try db.cachedStatement(sql: statement.text)
        // Existentials, not [DatabaseValue]: GRDB maps the latter through a key path that the
        // runtime instantiates on every call (about 3% of a login's CPU under load).
        let arguments = StatementArguments(statement.values.map { Self.databaseValue($0) as (any DatabaseValueConvertible)? })
        guard prepared.columnCount > 0 else {
            try prepared.execute(arguments: arguments)
            return []
        }
        return try Row.fetchAll(prepared, arguments: arguments).map(Self.row)
    }

    static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .int(let v): return v.databaseValue
        case .text(let v): return v.databaseValue
        case .bytes(let v): return Data(v).databaseValue
        case .bool(let v): return v.databaseValue
        }
    }

    static func row(_ row: Row) -> SQLRow {
        var columns: [String: SQLValue] = [:]
        columns.reserveCapacity(row.count)
        for (name, value) in row {
            switch value.storage {
            case .null: columns[name] = .null
            case .int64(let v): columns[name] = .int(Int(v))
            case .double(let v): columns[name] = .int(Int(v))
            case .string(let v): columns[name] = .text(v)
            case .blob(let v): columns[name] = .bytes(Array(v))
            }
        }
        return SQLRow(columns)
    }
}
