/// The audit log, the shared rate-limit windows and the purge of expired rows.
extension Store {
    public func appendAudit(_ event: AuditEvent) async throws {
        try await driver.write(LoginSteps.appendAudit(event))
    }

    public func auditLog(limit: Int) async throws -> [AuditEvent] {
        try await auditLog(AuditQuery(limit: limit))
    }

    /// The newest `query.limit` rows that match `query`, oldest first.
    public func auditLog(_ query: AuditQuery) async throws -> [AuditEvent] {
        try await numberedAuditLog(query).map(\.event)
    }

    /// As `auditLog`, with each row's id (for paging back with `before`).
    public func numberedAuditLog(_ query: AuditQuery) async throws -> [NumberedAuditEvent] {
        // An IN list may not be empty: every kind is asked for as "" (no row's kind) with the flag.
        let anyKind = query.kinds.isEmpty ? 1 : 0
        return try await driver.read(
            """
            SELECT * FROM audit WHERE (CAST(\(query.userId) AS TEXT) IS NULL OR lower(user_id) = lower(\(query.userId)))
              AND (\(anyKind) = 1 OR kind IN (\(list: query.kinds.isEmpty ? [""] : query.kinds)))
              AND time >= \(query.since ?? Int.min) AND time < \(query.until ?? Int.max) AND id < \(query.before ?? Int.max)
            ORDER BY id DESC LIMIT \(query.limit)
            """
        ).reversed().map { NumberedAuditEvent(id: try $0.int("id"), event: try AuditEvent(row: $0)) }
    }

    // MARK: Rate limits (shared by every instance on the store)

    /// Gives back one counted event of `key` (a check that turned out right is not a failure);
    /// one atomic statement, never below 0.
    public func uncountEvent(key: String) async throws {
        try await driver.write("UPDATE rate_limits SET count = count - 1 WHERE key = \(key) AND count > 0")
    }

    /// Counts one event of `key` in its current fixed window (which starts at the first event
    /// and lasts `window` seconds) and returns the count so far, this event included. One
    /// atomic upsert, so two instances counting the same key never lose an event.
    public func countEvent(key: String, window: Int, now: Int) async throws -> Int {
        try await driver.writeOne(LoginSteps.countStatement(key: key, window: window, now: now))?.int("count") ?? 1
    }

    /// The count of the key's current window, without counting an event (0 when none is open).
    public func eventCount(key: String, now: Int) async throws -> Int {
        try await driver.readOne("SELECT count FROM rate_limits WHERE key = \(key) AND expires > \(now)")?.int("count") ?? 0
    }

    /// Deletes expired one-time rows (challenges, access sessions, tokens, web sessions, rate-limit windows).
    public func purgeExpired(now: Int) async throws {
        try await purge(now: now, tables: ["rate_limits", "challenges", "auth_tokens", "web_sessions"])
        // Keep access sessions a while past expiry so a late poll still reads `expired`.
        try await driver.write("DELETE FROM access_sessions WHERE expires <= \(now - 3600)")
    }

    /// Deletes the rows of `tables` (program constants) that expired by `now`, in one transaction.
    func purge(now: Int, tables: [String]) async throws {
        try await transaction { tx in
            for table in tables { _ = try tx.run("DELETE FROM \(raw: table) WHERE expires <= \(now)") }
        }
    }

    /// Rows in each of `tables` (those whose rows expire: `SchemaChange.expiring`), for `/metrics`.
    public func expiringRowCounts(tables: [String]) async throws -> [String: Int] {
        // The table names are this program's constants, never input.
        let sql = tables.map { "SELECT '\($0)' AS name, count(*) AS row_count FROM \($0)" }.joined(separator: " UNION ALL ")
        var counts: [String: Int] = [:]
        for row in try await driver.read(SQLStatement(text: sql)) { counts[try row.text("name")] = try row.int("row_count") }
        return counts
    }
}
