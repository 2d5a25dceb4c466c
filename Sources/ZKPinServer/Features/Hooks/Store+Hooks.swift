/// A receiver of security events (`zkpin-server admin hooks add`): its URL, the events it
/// wants (nil: all), and how far along the audit log it has been sent.
public struct Hook: Sendable, Equatable {
    public var id: String
    public var url: String
    public var events: [String]?
    public var created: Int
    /// The id of the last audit row handled (sent, or not an event it wants).
    public var cursor: Int
    /// Failed sends in a row (the backoff), and when the hook is next due (or its lease ends).
    public var attempts: Int
    public var nextAttempt: Int

    public init(id: String, url: String, events: [String]?, created: Int, cursor: Int, attempts: Int = 0, nextAttempt: Int = 0) {
        self.id = id; self.url = url; self.events = events; self.created = created; self.cursor = cursor
        self.attempts = attempts; self.nextAttempt = nextAttempt
    }

    public func wants(_ event: String) -> Bool { events?.contains(event) ?? true }
}

extension Store {
    /// Adds a hook that starts after the newest audit row (it gets what happens from now on).
    public func insertHook(id: String, url: String, events: [String]?, now: Int) async throws -> Hook {
        try await transaction { tx in
            let newest = try tx.one("SELECT MAX(id) AS n FROM audit").flatMap { try $0.optionalInt("n") } ?? 0
            let hook = Hook(id: id, url: url, events: events, created: now, cursor: newest)
            _ = try tx.run(
                """
                INSERT INTO hooks(id, url, events, created, cursor, attempts, next_attempt)
                VALUES (\(hook.id), \(hook.url), \(events?.joined(separator: ",")), \(now), \(newest), 0, 0)
                """)
            return hook
        }
    }

    public func hooks() async throws -> [Hook] {
        try await driver.read("SELECT * FROM hooks ORDER BY created, id").map(Hook.init(row:))
    }

    public func deleteHook(id: String) async throws -> Bool {
        try await driver.writeOne("DELETE FROM hooks WHERE id = \(id) RETURNING 1") != nil
    }

    /// Takes a due hook for `lease` seconds (one instance sends a hook's events at a time, in order).
    public func claimHook(id: String, now: Int, lease: Int) async throws -> Hook? {
        try await driver.writeOne(
            "UPDATE hooks SET next_attempt = \(now + lease) WHERE id = \(id) AND next_attempt <= \(now) RETURNING *"
        ).map(Hook.init(row:))
    }

    /// Moves a claimed hook's cursor past rows handled; clears its failures.
    public func advanceHook(id: String, cursor: Int) async throws {
        try await driver.write("UPDATE hooks SET cursor = \(cursor), attempts = 0 WHERE id = \(id) AND cursor < \(cursor)")
    }

    /// Releases a claimed hook: due again at `at`; `failed` counts one more failure.
    public func releaseHook(id: String, at: Int, failed: Bool) async throws {
        if failed {
            try await driver.write("UPDATE hooks SET next_attempt = \(at), attempts = attempts + 1 WHERE id = \(id)")
        } else {
            try await driver.write("UPDATE hooks SET next_attempt = \(at), attempts = 0 WHERE id = \(id)")
        }
    }

    /// Up to `limit` audit rows after `cursor`, oldest first.
    public func auditRows(after cursor: Int, limit: Int) async throws -> [NumberedAuditEvent] {
        try await driver.read("SELECT * FROM audit WHERE id > \(cursor) ORDER BY id LIMIT \(limit)").map {
            NumberedAuditEvent(id: try $0.int("id"), event: try AuditEvent(row: $0))
        }
    }

    /// The newest audit row's id (how far behind each hook is, for /metrics).
    public func newestAuditId() async throws -> Int {
        try await driver.readOne("SELECT MAX(id) AS n FROM audit").flatMap { try $0.optionalInt("n") } ?? 0
    }
}

extension Hook {
    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), url: try r.text("url"),
            events: try r.optionalText("events").map { $0.split(separator: ",").map(String.init) }, created: try r.int("created"),
            cursor: try r.int("cursor"), attempts: try r.int("attempts"), nextAttempt: try r.int("next_attempt"))
    }
}

/// The hooks and how far each has read the audit log.
enum HooksSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(version: 15, owner: "Hooks", summary: "receivers of security events and their place in the audit log") { d in
            [
                """
                CREATE TABLE hooks(
                    id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT, created \(d.integer) NOT NULL, cursor \(d.integer) NOT NULL,
                    attempts \(d.integer) NOT NULL, next_attempt \(d.integer) NOT NULL)
                """
            ]
        }
    ]
}
