// What the operator's commands (`zkpin-server admin ...`) ask of the store: which identities
// an unblock or revoke touches, and which audit rows to show.

/// The identities of one person, all of them or one device's.
public struct IdentitySelection: Sendable, Equatable {
    /// The e-mail address; it matches in any case (Case@Example.com is case@example.com).
    public var userId: String
    /// Only the identities registered with this device name (exact match); nil: every device.
    public var device: String?
    /// Only this identity; nil: every identity of `userId` (and `device`).
    public var mpinId: String?

    public init(userId: String, device: String? = nil, mpinId: String? = nil) {
        self.userId = userId; self.device = device; self.mpinId = mpinId
    }
}

/// A filter on the audit log.
public struct AuditQuery: Sendable, Equatable {
    /// Rows about this e-mail address (any case); nil: every row.
    public var userId: String?
    /// Rows of these kinds ("login", "revoke"); empty: every kind.
    public var kinds: [String]
    /// Rows at or after this Unix time; nil: from the start.
    public var since: Int?
    /// Rows before this Unix time; nil: up to now.
    public var until: Int?
    /// Rows older than this row (its id): the next page back; nil: the newest.
    public var before: Int?
    /// At most this many rows, the newest ones.
    public var limit: Int

    public init(userId: String? = nil, kinds: [String] = [], since: Int? = nil, until: Int? = nil, before: Int? = nil, limit: Int = 100) {
        self.userId = userId; self.kinds = kinds; self.since = since; self.until = until; self.before = before; self.limit = limit
    }
}

/// An audit row with its id, the log's order (hooks' cursors, the listings' paging).
public struct NumberedAuditEvent: Sendable, Equatable {
    public var id: Int
    public var event: AuditEvent
}
