import Logging

/// The server's schema: every table and change, one list for both databases, each room's
/// changes in its own group (`SchemaChange`). A new feature appends its group here; a new
/// change gets the next version number.
public enum ServerSchema {
    public static let changes: [SchemaChange] =
        CoreSchema.changes + OIDCSchema.changes + OTPSchema.changes + BackchannelSchema.changes + DeviceGrantSchema.changes
        + PushSchema.changes + PushSignInSchema.changes + SignOutSchema.changes
        + HooksSchema.changes + AdminSchema.changes
}

extension Store {
    /// Rows in each table of the server's schema whose rows expire, for `/metrics`.
    public func expiringRowCounts() async throws -> [String: Int] {
        try await expiringRowCounts(tables: ServerSchema.changes.expiringTables)
    }

    /// The SQLite store at `path` with the server's schema.
    public static func sqlite(path: String) throws -> Store { try sqlite(path: path, schema: ServerSchema.changes) }
}

extension Store {
    /// The PostgreSQL store at `location` with the server's schema.
    public static func postgres(
        _ location: PostgresLocation, maxConnections: Int = 20, logger: Logger = Logger(label: "zkpin.postgres"), patience: Double = 1
    ) async throws -> Store {
        try await postgres(location, schema: ServerSchema.changes, maxConnections: maxConnections, logger: logger, patience: patience)
    }
}

extension GRDBDriver {
    public convenience init(path: String) throws { try self.init(path: path, schema: ServerSchema.changes) }
}
