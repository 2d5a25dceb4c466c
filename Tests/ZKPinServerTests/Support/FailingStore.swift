import Foundation

@testable import ZKPinServer

/// A store that fails on demand: every call throws while `failing` is set, and otherwise goes
/// to the real store underneath. The storage-failure rule (503 with Retry-After, never a 4xx
/// that blames the person) is tested through it.
final class FailingStore: Store, @unchecked Sendable {  // `failing` is guarded by `lock`
    struct Outage: Error, CustomStringConvertible { var description: String { "the test switched the database off" } }
    let inner: any Store
    private let lock = NSLock()
    private var isFailing = false

    init(_ inner: any Store) { self.inner = inner }

    var failing: Bool {
        get { lock.withLock { isFailing } }
        set { lock.withLock { isFailing = newValue } }
    }

    func check() throws { if failing { throw Outage() } }

    func fixSetting(_ key: String, value: String) async throws -> String {
        try check(); return try await inner.fixSetting(key, value: value)
    }

    func insertRegistration(_ registration: PendingRegistration) async throws {
        try check(); return try await inner.insertRegistration(registration)
    }

    func registration(mpinId: String) async throws -> PendingRegistration? {
        try check(); return try await inner.registration(mpinId: mpinId)
    }

    func activate(mpinId: String, now: Int) async throws -> Bool {
        try check(); return try await inner.activate(mpinId: mpinId, now: now)
    }

    func deleteExpiredRegistrations(now: Int) async throws -> Int {
        try check(); return try await inner.deleteExpiredRegistrations(now: now)
    }

    func identity(mpinId: String) async throws -> Identity? {
        try check(); return try await inner.identity(mpinId: mpinId)
    }

    func identities() async throws -> [Identity] {
        try check(); return try await inner.identities()
    }

    func revoke(userId: String) async throws -> Int {
        try check(); return try await inner.revoke(userId: userId)
    }

    func revoke(_ selection: IdentitySelection) async throws -> Int {
        try check(); return try await inner.revoke(selection)
    }

    func unblock(_ selection: IdentitySelection) async throws -> Int {
        try check(); return try await inner.unblock(selection)
    }

    func reserveAttempt(mpinId: String, maxAttempts: Int, now: Int, hold: Int) async throws -> AttemptReservation {
        try check(); return try await inner.reserveAttempt(mpinId: mpinId, maxAttempts: maxAttempts, now: now, hold: hold)
    }

    func settleAttempt(mpinId: String, _ settlement: AttemptSettlement) async throws -> AttemptResult? {
        try check(); return try await inner.settleAttempt(mpinId: mpinId, settlement)
    }

    func startLogin(challengeID: String, mpinId: String, now: Int, maxAttempts: Int, hold: Int) async throws -> LoginStart {
        try check(); return try await inner.startLogin(challengeID: challengeID, mpinId: mpinId, now: now, maxAttempts: maxAttempts, hold: hold)
    }

    func finishLogin(_ settlement: AttemptSettlement, token: AuthToken, maxAttempts: Int, audit: AuditEvent?) async throws -> AttemptResult? {
        try check(); return try await inner.finishLogin(settlement, token: token, maxAttempts: maxAttempts, audit: audit)
    }

    func admitPass1(_ challenge: Challenge, counting events: [CountedEvent], now: Int) async throws -> Pass1Admission {
        try check(); return try await inner.admitPass1(challenge, counting: events, now: now)
    }

    func takeAuthToken(hash: String, now: Int, loginAudit: (time: Int, address: String)?) async throws
        -> (token: AuthToken, identityState: IdentityState?)?
    {
        try check(); return try await inner.takeAuthToken(hash: hash, now: now, loginAudit: loginAudit)
    }

    func insertChallenge(_ challenge: Challenge) async throws {
        try check(); return try await inner.insertChallenge(challenge)
    }

    func consumeChallenge(id: String?, mpinId: String, now: Int) async throws -> Challenge? {
        try check(); return try await inner.consumeChallenge(id: id, mpinId: mpinId, now: now)
    }

    func insertAccessSession(_ session: AccessSession) async throws -> Bool {
        try check(); return try await inner.insertAccessSession(session)
    }

    func accessSession(webOTTHash: String) async throws -> AccessSession? {
        try check(); return try await inner.accessSession(webOTTHash: webOTTHash)
    }

    func accessSession(code: String) async throws -> AccessSession? {
        try check(); return try await inner.accessSession(code: code)
    }

    func presentCode(_ code: String, now: Int) async throws -> AccessSession? {
        try check(); return try await inner.presentCode(code, now: now)
    }

    func markRefused(code: String, outcome: AccessSession.Status, now: Int) async throws -> Bool {
        try check(); return try await inner.markRefused(code: code, outcome: outcome, now: now)
    }

    func markWrongPIN(code: String, mpinId: String, now: Int) async throws -> Bool {
        try check(); return try await inner.markWrongPIN(code: code, mpinId: mpinId, now: now)
    }

    func markUser(code: String, mpinId: String, userId: String, authOTTHash: String, now: Int) async throws -> Bool {
        try check(); return try await inner.markUser(code: code, mpinId: mpinId, userId: userId, authOTTHash: authOTTHash, now: now)
    }

    func markAuthenticated(code: String, authOTTHash: String, now: Int) async throws -> Bool {
        try check(); return try await inner.markAuthenticated(code: code, authOTTHash: authOTTHash, now: now)
    }

    func markTakenUp(webOTTHash: String) async throws {
        try check(); return try await inner.markTakenUp(webOTTHash: webOTTHash)
    }

    func consumeAccessSession(webOTTHash: String, now: Int, window: Int) async throws -> AccessSession? {
        try check(); return try await inner.consumeAccessSession(webOTTHash: webOTTHash, now: now, window: window)
    }

    func insertAuthToken(_ token: AuthToken) async throws {
        try check(); return try await inner.insertAuthToken(token)
    }

    func consumeAuthToken(hash: String, now: Int) async throws -> AuthToken? {
        try check(); return try await inner.consumeAuthToken(hash: hash, now: now)
    }

    func insertWebSession(_ session: WebSession) async throws {
        try check(); return try await inner.insertWebSession(session)
    }

    func webSession(hash: String, now: Int) async throws -> WebSession? {
        try check(); return try await inner.webSession(hash: hash, now: now)
    }

    func deleteWebSession(hash: String) async throws {
        try check(); return try await inner.deleteWebSession(hash: hash)
    }

    func appendAudit(_ event: AuditEvent) async throws {
        try check(); return try await inner.appendAudit(event)
    }

    func auditLog(limit: Int) async throws -> [AuditEvent] {
        try check(); return try await inner.auditLog(limit: limit)
    }

    func auditLog(_ query: AuditQuery) async throws -> [AuditEvent] {
        try check(); return try await inner.auditLog(query)
    }

    func countEvent(key: String, window: Int, now: Int) async throws -> Int {
        try check(); return try await inner.countEvent(key: key, window: window, now: now)
    }

    func eventCount(key: String, now: Int) async throws -> Int {
        try check(); return try await inner.eventCount(key: key, now: now)
    }

    func purgeExpired(now: Int) async throws {
        try check(); return try await inner.purgeExpired(now: now)
    }

    func expiringRowCounts() async throws -> [String: Int] {
        try check(); return try await inner.expiringRowCounts()
    }

    // MARK: OpenID Connect

    func insertOIDCClient(_ client: OIDCClient) async throws {
        try check(); return try await inner.insertOIDCClient(client)
    }

    func oidcClient(id: String) async throws -> OIDCClient? {
        try check(); return try await inner.oidcClient(id: id)
    }

    func oidcClients() async throws -> [OIDCClient] {
        try check(); return try await inner.oidcClients()
    }

    func deleteOIDCClient(id: String) async throws -> Bool {
        try check(); return try await inner.deleteOIDCClient(id: id)
    }

    func insertPendingAuthorization(_ pending: PendingAuthorization) async throws {
        try check(); return try await inner.insertPendingAuthorization(pending)
    }

    func consumePendingAuthorization(webOTTHash: String, now: Int) async throws -> PendingAuthorization? {
        try check(); return try await inner.consumePendingAuthorization(webOTTHash: webOTTHash, now: now)
    }

    func insertAuthorizationCode(_ code: AuthorizationCode) async throws {
        try check(); return try await inner.insertAuthorizationCode(code)
    }

    func redeemAuthorizationCode(hash: String, now: Int) async throws -> AuthorizationCode? {
        try check(); return try await inner.redeemAuthorizationCode(hash: hash, now: now)
    }

    func authorizationCodeWasUsed(hash: String) async throws -> Bool {
        try check(); return try await inner.authorizationCodeWasUsed(hash: hash)
    }

    func insertOIDCAccessToken(_ token: OIDCAccessToken) async throws {
        try check(); return try await inner.insertOIDCAccessToken(token)
    }

    func oidcAccessToken(hash: String, now: Int) async throws -> OIDCAccessToken? {
        try check(); return try await inner.oidcAccessToken(hash: hash, now: now)
    }

    func revokeOIDCAccessTokens(codeHash: String) async throws -> Int {
        try check(); return try await inner.revokeOIDCAccessTokens(codeHash: codeHash)
    }

    func insertOIDCRefreshToken(_ token: OIDCRefreshToken) async throws {
        try check(); return try await inner.insertOIDCRefreshToken(token)
    }

    func redeemOIDCRefreshToken(hash: String, now: Int) async throws -> OIDCRefreshToken? {
        try check(); return try await inner.redeemOIDCRefreshToken(hash: hash, now: now)
    }

    func usedOIDCRefreshTokenFamily(hash: String) async throws -> String? {
        try check(); return try await inner.usedOIDCRefreshTokenFamily(hash: hash)
    }

    func purgeExpiredOIDC(now: Int) async throws {
        try check(); return try await inner.purgeExpiredOIDC(now: now)
    }
}
