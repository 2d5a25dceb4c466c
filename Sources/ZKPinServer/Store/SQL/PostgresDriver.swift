import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The database for several server instances: PostgreSQL through postgres-nio's connection
/// pool (which replaces connections that die, e.g. when PostgreSQL restarts). Under READ
/// COMMITTED, concurrent updates of one row wait for each other and re-check their WHERE
/// clause on the new row, so single-statement takes and counts stay exact across instances.
public final class PostgresDriver: SQLDriver {
    /// The pool and the task that runs it: replaced by a fresh one when the database comes
    /// back after an outage (`PostgresRecovery`), since the pool's own reconnection backs off
    /// to a minute between tries.
    let pool: Mutex<(client: PostgresClient, run: Task<Void, Never>)>
    var client: PostgresClient { pool.withLock { $0.client } }
    let recovery: PostgresRecovery
    /// Every call in flight, under the deadline and the outage watch.
    let watch: CallWatch
    let logger: Logger
    public let location: PostgresLocation
    public var dialect: SQLDialect { .postgres }

    /// Transactions run their synchronous bodies here, each statement waiting for its answer:
    /// threads of their own, so a body never blocks an event loop or Swift's task pool.
    static let transactionThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    /// Connects (with a clear error when the database cannot be reached or refuses us), starts
    /// the pool and brings the schema up to date.
    /// `patience` scales the deadline and the slow-call mark (1 for a server; the store tests
    /// give more, since a test process busy with other tests' crypto answers its own calls late).
    public static func open(
        _ location: PostgresLocation, schema: [SchemaChange], maxConnections: Int = 20,
        logger: Logger = Logger(label: "zkpin.postgres"), patience: Double = 1
    ) async throws -> PostgresDriver {
        // One plain connection first: the pool would keep retrying an unreachable server
        // quietly, while a single attempt fails at once with the reason. The schema is
        // brought up to date on it too, before the pool serves anything.
        let probe: PostgresConnection
        do {
            var config = location.connectionConfiguration
            config.options.connectTimeout = .seconds(10)
            probe = try await PostgresConnection.connect(configuration: config, id: 0, logger: logger)
        } catch {
            throw SetupError("cannot use the database \(location.display): \(describe(error))")
        }
        do {
            try await PostgresMigrations.migrate(probe, schema: schema, logger: logger)
            try await probe.close()
        } catch {
            try? await probe.close()
            throw SetupError("cannot prepare the schema of \(location.display): \(describe(error))")
        }
        var config = location.poolConfiguration
        config.options.maximumConnections = maxConnections
        config.options.connectTimeout = .seconds(10)
        return PostgresDriver(
            client: PostgresClient(configuration: config, backgroundLogger: logger), location: location, maxConnections: maxConnections,
            logger: logger, patience: patience)
    }

    /// Seconds a statement or a transaction may take before the request answers 503 (a
    /// database that does not answer is found down sooner: `PostgresRecovery`).
    static let statementDeadline = 15.0
    /// Seconds after which a waiting call has the watch check whether the database is down.
    static let slowCall = 2.0

    let maxConnections: Int

    private init(client: PostgresClient, location: PostgresLocation, maxConnections: Int, logger: Logger, patience: Double) {
        pool = Mutex((client, Task { await client.run() }))
        self.location = location
        self.maxConnections = maxConnections
        self.logger = logger
        let recovery = PostgresRecovery(location: location, logger: logger)
        self.recovery = recovery
        watch = CallWatch(
            deadline: Self.statementDeadline * patience, slowAfter: Self.slowCall * patience, slow: { recovery.suspect() },
            abandon: { recovery.isDown })
        recovery.attach(self)
    }

    // Cancelling run() closes the pool's connections.
    deinit { pool.withLock { $0.run.cancel() } }

    /// A new pool in place of the current one (whose run is cancelled, closing its connections).
    func replacePool() {
        var config = location.poolConfiguration
        config.options.maximumConnections = maxConnections
        config.options.connectTimeout = .seconds(10)
        let fresh = PostgresClient(configuration: config, backgroundLogger: logger)
        let old = pool.withLock { current in
            let old = current.run
            current = (fresh, Task { await fresh.run() })
            return old
        }
        old.cancel()
    }

    /// Runs one database call under the deadline; a failure that is not PostgreSQL's own
    /// answer (a lost connection, no answer in time) starts the watch for its return.
    func guarded<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        if recovery.isDown { throw DatabaseDown() }
        do { return try await watch.run(operation) } catch {
            if !Self.isServerAnswer(error) { recovery.suspect() }
            throw error
        }
    }

    /// Whether PostgreSQL itself answered with this error (a constraint, a syntax error): the
    /// database is up.
    static func isServerAnswer(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo != nil
    }

    /// `SELECT 1` through the pool under a short deadline: whether the database answers now
    /// (`/ready`); a failure starts the watch for its return.
    public func isReachable() async -> Bool {
        if recovery.isDown { return false }
        do {
            _ = try await guarded { [client, logger] in try await Self.collect(try await client.query("SELECT 1", logger: logger)) }
            return true
        } catch {
            return Self.isServerAnswer(error)
        }
    }

    /// A reason a person can act on; PSQLError hides everything in its description.
    static func describe(_ error: any Error) -> String {
        if let sql = error as? PSQLError {
            if let message = sql.serverInfo?[.message] { return "PostgreSQL says: \(message)" }
            if let underlying = sql.underlying {
                let text = "\(underlying)"
                if text.contains("Connection refused") { return "connection refused (is PostgreSQL running and listening there?)" }
                if text.contains("No such file") {
                    return "no socket there (is PostgreSQL running, with its socket in that folder and for that port?)"
                }
                return text
            }
            return "\(sql.code)"
        }
        return "\(error)"
    }

    public func read(_ statement: SQLStatement) async throws -> [SQLRow] { try await write(statement) }

    public func write(_ statement: SQLStatement) async throws -> [SQLRow] {
        let (client, logger) = (client, logger)
        let query = Self.query(statement)
        return try await guarded { try await Self.collect(try await client.query(query, logger: logger)) }
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLTransaction) throws -> T) async throws -> T {
        let (client, logger) = (client, logger)
        return try await guarded {
            try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    try await Self.transactionThreads.runIfActive {
                        try body(BlockingTransaction(connection: connection, logger: logger))
                    }
                }
            }
        }
    }

    /// A transaction's statements, each run on its connection while the body's thread waits.
    struct BlockingTransaction: SQLTransaction {
        let connection: PostgresConnection
        let logger: Logger

        func run(_ statement: SQLStatement) throws -> [SQLRow] {
            let answer = Answer()
            let query = PostgresDriver.query(statement)
            let (connection, logger) = (connection, logger)
            Task {
                do { answer.result = .success(try await PostgresDriver.collect(try await connection.query(query, logger: logger))) } catch {
                    answer.result = .failure(error)
                }
                answer.done.signal()
            }
            answer.done.wait()
            return try answer.result!.get()
        }

        /// Written by the query's task before it signals, read by the waiting thread after.
        final class Answer: @unchecked Sendable {
            let done = DispatchSemaphore(value: 0)
            var result: Result<[SQLRow], any Error>?
        }
    }

    /// The statement with its placeholders numbered as PostgreSQL wants them. Scanned as UTF-8
    /// bytes ("?" is one byte and never part of another character's encoding): walking the
    /// text by Character cost about 30 us of a statement's CPU under load.
    static func query(_ statement: SQLStatement) -> PostgresQuery {
        var sql = [UInt8]()
        sql.reserveCapacity(statement.text.utf8.count + 16)
        var number = 0
        for byte in statement.text.utf8 {
            if byte == UInt8(ascii: "?") {
                number += 1
                sql.append(UInt8(ascii: "$"))
                sql += String(number).utf8
            } else {
                sql.append(byte)
            }
        }
        var binds = PostgresBindings(capacity: statement.values.count)
        for value in statement.values {
            switch value {
            case .null: binds.appendNull()
            case .int(let v): binds.append(v)
            case .text(let v): binds.append(v)
            case .bytes(let v): binds.append(ByteBuffer(bytes: v))
            case .bool(let v): binds.append(v)
            }
        }
        return PostgresQuery(unsafeSQL: String(decoding: sql, as: UTF8.self), binds: binds)
    }

    static func collect(_ rows: PostgresRowSequence) async throws -> [SQLRow] {
        var out: [SQLRow] = []
        for try await row in rows { out.append(try Self.row(row)) }
        return out
    }

    static func row(_ row: PostgresRow) throws -> SQLRow {
        var columns: [String: SQLValue] = [:]
        for cell in row {
            guard cell.bytes != nil else {
                columns[cell.columnName] = .null
                continue
            }
            switch cell.dataType {
            case .int8, .int4, .int2: columns[cell.columnName] = .int(try cell.decode(Int.self))
            case .bool: columns[cell.columnName] = .bool(try cell.decode(Bool.self))
            case .bytea: columns[cell.columnName] = .bytes(Array(try cell.decode(ByteBuffer.self).readableBytesView))
            default: columns[cell.columnName] = .text(try cell.decode(String.self))
            }
        }
        return SQLRow(columns)
    }
}

/// Where postgres-nio connects: the Unix socket when the URL names one, else plain TCP. A plain
/// connection and the pool take the same settings in two types of their own.
extension PostgresLocation {
    var connectionConfiguration: PostgresConnection.Configuration {
        if let socketPath {
            return PostgresConnection.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }

    var poolConfiguration: PostgresClient.Configuration {
        if let socketPath {
            return PostgresClient.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }
}
