// The storage protocol of DESIGN.md ("Storage"). Two implementations share one conformance
// test suite (Tests/ZKPinServerTests/StoreConformanceTests.swift): SQLite (GRDB) and PostgreSQL
// (postgres-nio, for several instances on one database). Every method that consumes a one-time value or moves an attempt counter
// must do it in ONE atomic statement (single-row UPDATE/DELETE ... RETURNING), so that two
// server instances sharing a PostgreSQL database cannot both consume the same value.

public protocol Store: OIDCStore {
    // MARK: Settings
    /// Stores `value` under `key` unless a value is there; returns the stored value.
    func fixSetting(_ key: String, value: String) async throws -> String

    // MARK: Registrations and identities
    func insertRegistration(_ registration: PendingRegistration) async throws
    func registration(mpinId: String) async throws -> PendingRegistration?
    /// Activates a live, not yet activated registration and creates its identity (active),
    /// atomically; false when it is unknown, expired or already activated.
    func activate(mpinId: String, now: Int) async throws -> Bool
    func deleteExpiredRegistrations(now: Int) async throws -> Int
    func identity(mpinId: String) async throws -> Identity?
    func identities() async throws -> [Identity]
    /// Revokes every identity of `userId` (the e-mail address in any case); returns how many changed.
    func revoke(userId: String) async throws -> Int
    /// Revokes the identities `selection` names that are not revoked yet; returns how many changed.
    func revoke(_ selection: IdentitySelection) async throws -> Int
    /// Blocked → active with no failed attempts, for the blocked identities `selection` names
    /// (an operator's recovery: the person keeps their token and PIN); returns how many changed.
    func unblock(_ selection: IdentitySelection) async throws -> Int

    // MARK: Attempts (reserve, then settle exactly once)
    /// Reserves one attempt when the identity is active and failed + in-flight < max. A
    /// reservation not settled within `hold` seconds (a crash) stops counting.
    func reserveAttempt(mpinId: String, maxAttempts: Int, now: Int, hold: Int) async throws -> AttemptReservation
    func settleAttempt(mpinId: String, _ settlement: AttemptSettlement) async throws -> AttemptResult?

    // MARK: Pass 2 in two transactions (the login's hot path)
    /// Consumes the named live challenge of `mpinId` and, when there was one, reserves an
    /// attempt exactly as `reserveAttempt` does, atomically; the identity comes back so pass 2
    /// needs no separate read. A refused reservation still consumes the challenge.
    func startLogin(challengeID: String, mpinId: String, now: Int, maxAttempts: Int, hold: Int) async throws -> LoginStart
    /// Settles the reserved attempt exactly as `settleAttempt` does and stores `token`,
    /// atomically. The stored token's `attemptsLeft` is `maxAttempts` minus the settled count
    /// (at least 0), and a `wrongPIN` outcome becomes `blocked` when this attempt blocked the
    /// identity. Nil (and no token) when the identity is gone.
    /// `audit`, when given, is appended in the same transaction.
    func finishLogin(_ settlement: AttemptSettlement, token: AuthToken, maxAttempts: Int, audit: AuditEvent?) async throws -> AttemptResult?
    /// Pass 1 in one transaction: counts `events` as `countEvent` does; when every count is
    /// within its limit, inserts the challenge only while its identity is active. Answers
    /// `.limited` (only the counts changed) or the identity's state (`active`: inserted; nil:
    /// no such identity, nothing inserted).
    func admitPass1(_ challenge: Challenge, counting events: [CountedEvent], now: Int) async throws -> Pass1Admission
    /// Consumes an auth token as `consumeAuthToken` does and answers it with its identity's
    /// state now (nil when the identity is gone), in one transaction. With `loginAudit`, a
    /// `login` audit row (the token's user and identity, that time and address) goes in too
    /// when the token is a success without an access code and the identity is active: the
    /// login is then complete.
    func takeAuthToken(hash: String, now: Int, loginAudit: (time: Int, address: String)?) async throws
        -> (token: AuthToken, identityState: IdentityState?)?

    // MARK: Pass-1 challenges
    func insertChallenge(_ challenge: Challenge) async throws
    /// Consumes the named live challenge of `mpinId`, or the newest live one when `id` is nil.
    func consumeChallenge(id: String?, mpinId: String, now: Int) async throws -> Challenge?

    // MARK: Access sessions
    /// Inserts; false when a live session already uses the code (draw another).
    func insertAccessSession(_ session: AccessSession) async throws -> Bool
    func accessSession(webOTTHash: String) async throws -> AccessSession?
    func accessSession(code: String) async throws -> AccessSession?
    /// new or wrong_pin → wid for a live code; returns the session when the code is live and at
    /// `new`, `wid` or `wrong_pin`, nil otherwise (unknown, expired, or past pass 2).
    func presentCode(_ code: String, now: Int) async throws -> AccessSession?
    /// wid → wrong_pin when `/rps/authenticate` refused a genuine wrong PIN for a live code,
    /// noting `mpinId` so that the page can show the attempts left; false when the code is not
    /// live or not at `wid`.
    func markWrongPIN(code: String, mpinId: String, now: Int) async throws -> Bool
    /// wid or user → `outcome` (`blocked` or `refused`) for a live code, so the page can say
    /// what happened; false when the code is not live or past those states.
    func markRefused(code: String, outcome: AccessSession.Status, now: Int) async throws -> Bool
    /// wid → user after pass 2 verified.
    func markUser(code: String, mpinId: String, userId: String, authOTTHash: String, now: Int) async throws -> Bool
    /// user → authenticate for the login of `authOTTHash`, while the code is live.
    func markAuthenticated(code: String, authOTTHash: String, now: Int) async throws -> Bool
    /// Records that the page's poll saw `authenticate`.
    func markTakenUp(webOTTHash: String) async throws
    /// authenticate → used (the page exchanges it for a cookie); nil when not in `authenticate`
    /// or authenticated more than `window` seconds ago.
    func consumeAccessSession(webOTTHash: String, now: Int, window: Int) async throws -> AccessSession?

    // MARK: Auth tokens (pass 2 → authenticate)
    func insertAuthToken(_ token: AuthToken) async throws
    func consumeAuthToken(hash: String, now: Int) async throws -> AuthToken?

    // MARK: Web sessions
    func insertWebSession(_ session: WebSession) async throws
    func webSession(hash: String, now: Int) async throws -> WebSession?
    func deleteWebSession(hash: String) async throws

    // MARK: Audit
    func appendAudit(_ event: AuditEvent) async throws
    func auditLog(limit: Int) async throws -> [AuditEvent]
    /// The newest `query.limit` rows that match `query`, oldest first.
    func auditLog(_ query: AuditQuery) async throws -> [AuditEvent]

    // MARK: Rate limits (shared by every instance on the store)
    /// Counts one event of `key` in its current fixed window (which starts at the first event
    /// and lasts `window` seconds) and returns the count so far, this event included. One
    /// atomic upsert, so two instances counting the same key never lose an event.
    func countEvent(key: String, window: Int, now: Int) async throws -> Int
    /// The count of the key's current window, without counting an event (0 when none is open).
    func eventCount(key: String, now: Int) async throws -> Int

    /// Deletes expired one-time rows (challenges, access sessions, tokens, web sessions, rate-limit windows).
    func purgeExpired(now: Int) async throws
    /// Rows in each table that holds expiring values (`ExpiringTables.names`), for `/metrics`.
    func expiringRowCounts() async throws -> [String: Int]
}
