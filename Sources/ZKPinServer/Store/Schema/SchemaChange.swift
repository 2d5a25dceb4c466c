/// One change of the schema: a version number, the same on both databases, its statements in
/// the dialect's words (`SQLDialect`), and rows rewritten in Swift after them. Every table
/// and change is one entry of the server's schema list (`ServerSchema`), grouped by the room
/// that owns it; both databases run the same list (`SQLiteMigrations`, `PostgresMigrations`).
/// A shipped change is never edited (a database made by an older release migrates from where
/// it stands): append one.
public struct SchemaChange: Sendable {
    public var version: Int
    /// The room that owns the tables: "core" or a feature folder's name.
    public var owner: String
    /// What it does, in one line.
    public var summary: String
    public var statements: @Sendable (SQLDialect) -> [String]
    public var rewrites: [RowRewrite] = []
    /// The tables it creates whose rows expire (the purge empties them; /metrics counts them).
    public var expiring: [String]

    public init(
        version: Int, owner: String, summary: String, expiring: [String] = [], rewrites: [RowRewrite] = [],
        statements: @escaping @Sendable (SQLDialect) -> [String]
    ) {
        self.version = version
        self.owner = owner
        self.summary = summary
        self.expiring = expiring
        self.statements = statements
        self.rewrites = rewrites
    }
}

/// A column rewritten in Swift, row by row, where SQL cannot say it in both dialects (e-mail
/// folding: SQLite's lower() knows only ASCII, PostgreSQL's depends on the collation).
public struct RowRewrite: Sendable {
    public var table: String
    public var key: String
    public var column: String
    public var transform: @Sendable (String) -> String
}

extension [SchemaChange] {
    /// The versions in order, each with the changes that make it (several rooms may share one).
    var byVersion: [(version: Int, changes: [SchemaChange])] {
        Dictionary(grouping: self, by: \.version).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The tables whose rows expire, in the list's order.
    public var expiringTables: [String] { flatMap(\.expiring) }

    /// The newest version.
    public var latest: Int { map(\.version).max() ?? 0 }
}
