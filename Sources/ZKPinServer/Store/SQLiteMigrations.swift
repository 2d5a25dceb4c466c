import GRDB

/// Runs the schema list (`SchemaChange`) on SQLite with GRDB's migrator: version N is the
/// migration named "vN", recorded in `grdb_migrations`.
enum SQLiteMigrations {
    static func migrator(_ schema: [SchemaChange]) -> DatabaseMigrator {
        var m = DatabaseMigrator()
        for (version, changes) in schema.byVersion {
            m.registerMigration("v\(version)") { db in
                for change in changes {
                    for sql in change.statements(.sqlite) { try db.execute(sql: sql) }
                    for rewrite in change.rewrites { try apply(rewrite, db) }
                }
            }
        }
        return m
    }

    static func apply(_ r: RowRewrite, _ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT \(r.key), \(r.column) FROM \(r.table)")
        for row in rows {
            let value: String = row[r.column]
            let changed = r.transform(value)
            guard changed != value else { continue }
            try db.execute(sql: "UPDATE \(r.table) SET \(r.column) = ? WHERE \(r.key) = ?", arguments: [changed, row[r.key] as String])
        }
    }
}
