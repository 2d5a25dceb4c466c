import Logging

/// The server's storage (docs/developer.md, "Storage"): every operation written once, in SQL that both
/// databases run, over a `SQLDriver` (SQLite through GRDB, the embedded default; PostgreSQL
/// for several instances). The only per-dialect SQL is declared in `SQLDialect` and, for the
/// login's hot paths on PostgreSQL, in `SingleStatementPaths`.
///
/// Every method that consumes a one-time value or moves an attempt counter does it in ONE
/// atomic statement (`UPDATE/DELETE ... RETURNING`), so that two server instances sharing a
/// PostgreSQL database cannot both consume the same value. The conformance suite
/// (Tests/ZKPinServerTests/Store/StoreConformanceTests.swift) runs on both drivers.
public final class Store: Sendable {
    public let driver: any SQLDriver
    var dialect: SQLDialect { driver.dialect }

    public init(driver: any SQLDriver) { self.driver = driver }

    /// The SQLite database at `path`, created when missing, brought up to `schema`.
    public static func sqlite(path: String, schema: [SchemaChange]) throws -> Store { Store(driver: try GRDBDriver(path: path, schema: schema)) }

    /// The PostgreSQL database at `location`, brought up to `schema`.
    public static func postgres(
        _ location: PostgresLocation, schema: [SchemaChange], maxConnections: Int = 20, logger: Logger = Logger(label: "zkpin.postgres"),
        patience: Double = 1
    ) async throws -> Store {
        Store(driver: try await PostgresDriver.open(location, schema: schema, maxConnections: maxConnections, logger: logger, patience: patience))
    }

    /// Runs `body` in one transaction.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLTransaction) throws -> T) async throws -> T {
        try await driver.transaction(body)
    }

    /// How many rows a statement with `RETURNING 1` touched.
    func changed(_ statement: SQLStatement) async throws -> Int { try await driver.write(statement).count }
}
