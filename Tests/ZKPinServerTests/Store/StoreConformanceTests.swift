import Foundation
import Testing

@testable import ZKPinServer

/// The conformance suite every `Store` passes, once per `StoreKind`. The PostgreSQL case runs
/// when ZKPIN_TEST_POSTGRES_URL names a server (tools/test starts one); each test gets a
/// database of its own.
enum StoreKind: String, CaseIterable, CustomStringConvertible {
    case sqlite
    case postgres
    var description: String { rawValue }

    /// The kinds this run can test; `postgresConformanceRan` reports a skipped PostgreSQL.
    static var available: [StoreKind] { TestPostgres.isConfigured ? allCases : [.sqlite] }

    func make() async throws -> Store {
        switch self {
        case .sqlite:
            let dir = try TempDir.make()
            return try Store.sqlite(path: dir + "/store.sqlite")
        case .postgres:
            return try await TestPostgres.freshStore()
        }
    }
}

enum TempDir {
    static func make() throws -> String {
        let path = NSTemporaryDirectory() + "zkpin-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

func pending(_ mpinId: String, user: String = "a@example.com", now: Int = 1000, ttl: Int = 3600) -> PendingRegistration {
    PendingRegistration(
        mpinId: mpinId, userId: user, device: "phone", regOTTHash: "h-\(mpinId)", codeHash: "c",
        created: now, expires: now + ttl, address: "127.0.0.1")
}

@Suite struct StoreConformanceTests {
    /// Shows up as skipped, with the reason, when the PostgreSQL cases did not run.
    @Test(.enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason)) func postgresConformanceRan() {
        #expect(StoreKind.available.contains(.postgres))
    }

    @Test(arguments: StoreKind.available) func settingIsFixedOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        #expect(try await store.fixSetting("curve", value: "bn254cx") == "bn254cx")
        #expect(try await store.fixSetting("curve", value: "bls12-381") == "bn254cx")
    }

    @Test(arguments: StoreKind.available) func activationIsOnceAndOnlyWhileLive(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("aa"))
        #expect(try await store.identity(mpinId: "aa") == nil)
        #expect(try await store.activate(mpinId: "aa", now: 1001))
        #expect(!(try await store.activate(mpinId: "aa", now: 1002)))
        let identity = try #require(try await store.identity(mpinId: "aa"))
        #expect(identity.state == .active && identity.userId == "a@example.com" && identity.failedAttempts == 0)
        #expect(try await store.registration(mpinId: "aa")?.activated == 1001)

        try await store.insertRegistration(pending("bb", now: 1000, ttl: 10))
        #expect(!(try await store.activate(mpinId: "bb", now: 1010)))
        #expect(!(try await store.activate(mpinId: "unknown", now: 1000)))
        #expect(try await store.deleteExpiredRegistrations(now: 1010) == 1)
        #expect(try await store.registration(mpinId: "bb") == nil)
    }

    @Test(arguments: StoreKind.available) func concurrentActivationActivatesOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("cc"))
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { try await store.activate(mpinId: "cc", now: 1001) } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
    }

    @Test(arguments: StoreKind.available) func attemptsReserveThenSettle(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("dd"))
        _ = try await store.activate(mpinId: "dd", now: 1000)
        #expect(try await store.reserveAttempt(mpinId: "nope", maxAttempts: 3, now: 1000, hold: 30) == .unknown)
        // Three reservations fill the budget; a fourth is busy until one settles.
        for _ in 0..<3 { #expect(try await store.reserveAttempt(mpinId: "dd", maxAttempts: 3, now: 1000, hold: 30) == .reserved) }
        #expect(try await store.reserveAttempt(mpinId: "dd", maxAttempts: 3, now: 1000, hold: 30) == .busy)
        #expect(try await store.settleAttempt(mpinId: "dd", .neutral) == AttemptResult(failedAttempts: 0, state: .active))
        #expect(try await store.settleAttempt(mpinId: "dd", .wrongPIN(maxAttempts: 3)) == AttemptResult(failedAttempts: 1, state: .active))
        #expect(try await store.settleAttempt(mpinId: "dd", .success(now: 1005)) == AttemptResult(failedAttempts: 0, state: .active))
        #expect(try await store.identity(mpinId: "dd")?.lastLogin == 1005)
        // Three genuine wrong PINs block.
        for expected in 1...3 {
            #expect(try await store.reserveAttempt(mpinId: "dd", maxAttempts: 3, now: 1006, hold: 30) == .reserved)
            let r = try await store.settleAttempt(mpinId: "dd", .wrongPIN(maxAttempts: 3))
            #expect(r?.failedAttempts == expected)
            #expect(r?.state == (expected == 3 ? .blocked : .active))
        }
        #expect(try await store.reserveAttempt(mpinId: "dd", maxAttempts: 3, now: 1007, hold: 30) == .blocked)
    }

    @Test(arguments: StoreKind.available) func staleReservationsStopCounting(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("ee"))
        _ = try await store.activate(mpinId: "ee", now: 1000)
        for _ in 0..<3 { _ = try await store.reserveAttempt(mpinId: "ee", maxAttempts: 3, now: 1000, hold: 30) }
        #expect(try await store.reserveAttempt(mpinId: "ee", maxAttempts: 3, now: 1010, hold: 30) == .busy)
        // A crash left three unsettled reservations: after the hold they no longer count.
        #expect(try await store.reserveAttempt(mpinId: "ee", maxAttempts: 3, now: 1031, hold: 30) == .reserved)
    }

    @Test(arguments: StoreKind.available) func concurrentReservationsNeverExceedTheBudget(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("ff"))
        _ = try await store.activate(mpinId: "ff", now: 1000)
        let reserved = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask { try await store.reserveAttempt(mpinId: "ff", maxAttempts: 3, now: 1000, hold: 30) == .reserved }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(reserved == 3)
    }

    @Test(arguments: StoreKind.available) func revokeAndStates(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("g1", user: "g@example.com"))
        try await store.insertRegistration(pending("g2", user: "g@example.com"))
        _ = try await store.activate(mpinId: "g1", now: 1000)
        _ = try await store.activate(mpinId: "g2", now: 1000)
        #expect(try await store.revoke(userId: "g@example.com") == 2)
        #expect(try await store.revoke(userId: "g@example.com") == 0)
        #expect(try await store.identity(mpinId: "g1")?.state == .revoked)
        #expect(try await store.reserveAttempt(mpinId: "g1", maxAttempts: 3, now: 1000, hold: 30) == .revoked)
        #expect(try await store.identities().count == 2)
    }

    @Test(arguments: StoreKind.available) func challengesAreSingleUse(kind: StoreKind) async throws {
        let store = try await kind.make()
        func c(_ id: String, created: Int) -> Challenge {
            Challenge(id: id, mpinId: "m", u: [1, 2], ut: nil, y: [3], date: 0, created: created, expires: created + 15)
        }
        try await store.insertChallenge(c("c1", created: 100))
        try await store.insertChallenge(c("c2", created: 101))
        try await store.insertChallenge(Challenge(id: "c3", mpinId: "m", u: [9], ut: [8], y: [7], date: 5, created: 90, expires: 105))
        #expect(try await store.consumeChallenge(id: "c1", mpinId: "other", now: 102) == nil)
        #expect(try await store.consumeChallenge(id: "c1", mpinId: "m", now: 102)?.u == [1, 2])
        #expect(try await store.consumeChallenge(id: "c1", mpinId: "m", now: 102) == nil)
        // Without an id: the newest live one.
        #expect(try await store.consumeChallenge(id: nil, mpinId: "m", now: 102)?.id == "c2")
        // c3 is live until 105 and keeps its UT and date.
        let c3 = try await store.consumeChallenge(id: nil, mpinId: "m", now: 104)
        #expect(c3?.ut == [8] && c3?.date == 5)
        try await store.insertChallenge(c("c4", created: 100))
        #expect(try await store.consumeChallenge(id: "c4", mpinId: "m", now: 115) == nil)
    }

    @Test(arguments: StoreKind.available) func concurrentChallengeConsumptionYieldsOne(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertChallenge(Challenge(id: "x", mpinId: "m", u: [1], ut: nil, y: [2], date: 0, created: 1, expires: 100))
        let got = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<10 { group.addTask { try await store.consumeChallenge(id: i % 2 == 0 ? "x" : nil, mpinId: "m", now: 2) != nil } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(got == 1)
    }

    @Test(arguments: StoreKind.available) func accessSessionLifecycle(kind: StoreKind) async throws {
        let store = try await kind.make()
        #expect(try await store.insertAccessSession(AccessSession(webOTTHash: "w1", code: "1234560", created: 100, expires: 220)))
        // A live code is not handed out twice.
        #expect(!(try await store.insertAccessSession(AccessSession(webOTTHash: "w2", code: "1234560", created: 110, expires: 230))))
        #expect(try await store.presentCode("0000019", now: 101) == nil)
        #expect(try await store.presentCode("1234560", now: 101)?.status == .wid)
        #expect(try await store.presentCode("1234560", now: 102)?.status == .wid)
        // A genuine wrong PIN: the page sees it, and the same code can be presented again.
        #expect(try await store.markWrongPIN(code: "1234560", mpinId: "m0", now: 102))
        let wrong = try await store.accessSession(webOTTHash: "w1")
        #expect(wrong?.status == .wrongPIN && wrong?.mpinId == "m0")
        #expect(!(try await store.markWrongPIN(code: "1234560", mpinId: "m0", now: 102)))
        #expect(try await store.presentCode("1234560", now: 102)?.status == .wid)
        #expect(!(try await store.markAuthenticated(code: "1234560", authOTTHash: "a", now: 103)))
        #expect(try await store.markUser(code: "1234560", mpinId: "m", userId: "u@example.com", authOTTHash: "a", now: 103))
        // Past pass 2 the code cannot be presented again.
        #expect(try await store.presentCode("1234560", now: 104) == nil)
        #expect(!(try await store.markAuthenticated(code: "1234560", authOTTHash: "other", now: 104)))
        #expect(try await store.markAuthenticated(code: "1234560", authOTTHash: "a", now: 104))
        #expect(try await store.accessSession(webOTTHash: "w1")?.takenUp == false)
        try await store.markTakenUp(webOTTHash: "w1")
        #expect(try await store.accessSession(code: "1234560")?.takenUp == true)
        let used = try await store.consumeAccessSession(webOTTHash: "w1", now: 105, window: 60)
        #expect(used?.userId == "u@example.com" && used?.mpinId == "m")
        #expect(try await store.consumeAccessSession(webOTTHash: "w1", now: 105, window: 60) == nil)
        // A used code can be drawn again.
        #expect(try await store.insertAccessSession(AccessSession(webOTTHash: "w3", code: "1234560", created: 106, expires: 226)))
    }

    @Test(arguments: StoreKind.available) func expiredCodesAreRefused(kind: StoreKind) async throws {
        let store = try await kind.make()
        _ = try await store.insertAccessSession(AccessSession(webOTTHash: "w", code: "0000019", created: 100, expires: 220))
        #expect(try await store.presentCode("0000019", now: 220) == nil)
        #expect(!(try await store.markWrongPIN(code: "0000019", mpinId: "m0", now: 220)))
        #expect(try await store.insertAccessSession(AccessSession(webOTTHash: "w2", code: "0000019", created: 221, expires: 341)))
    }

    @Test(arguments: StoreKind.available) func authTokensAreSingleUse(kind: StoreKind) async throws {
        let store = try await kind.make()
        let t = AuthToken(hash: "t", mpinId: "m", userId: "u", outcome: .wrongPIN, attemptsLeft: 2, accessCode: nil, expires: 160)
        try await store.insertAuthToken(t)
        #expect(try await store.consumeAuthToken(hash: "t", now: 100) == t)
        #expect(try await store.consumeAuthToken(hash: "t", now: 100) == nil)
        try await store.insertAuthToken(
            AuthToken(hash: "t2", mpinId: "m", userId: "u", outcome: .success, attemptsLeft: 3, accessCode: "1234560", expires: 160))
        #expect(try await store.consumeAuthToken(hash: "t2", now: 160) == nil)
    }

    @Test(arguments: StoreKind.available) func webSessionsAndAudit(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertWebSession(WebSession(hash: "s", mpinId: "m", userId: "u", created: 1, expires: 100))
        #expect(try await store.webSession(hash: "s", now: 50) == nil)  // no active identity "m": no session
        try await store.insertRegistration(pending("m"))
        #expect(try await store.activate(mpinId: "m", now: 1))
        #expect(try await store.webSession(hash: "s", now: 50)?.userId == "u")
        #expect(try await store.webSession(hash: "s", now: 100) == nil)
        try await store.deleteWebSession(hash: "s")
        #expect(try await store.webSession(hash: "s", now: 50) == nil)
        try await store.appendAudit(AuditEvent(time: 1, kind: "register", userId: "u"))
        try await store.appendAudit(AuditEvent(time: 2, kind: "login", userId: "u", address: "::1", detail: "x"))
        let log = try await store.auditLog(limit: 10)
        #expect(log.map(\.kind) == ["register", "login"])
        #expect(try await store.auditLog(limit: 1).map(\.kind) == ["login"])
        try await store.purgeExpired(now: 1000)
    }

    @Test(arguments: StoreKind.available) func rateLimitWindows(kind: StoreKind) async throws {
        let store = try await kind.make()
        #expect(try await store.eventCount(key: "k", now: 100) == 0)
        #expect(try await store.countEvent(key: "k", window: 60, now: 100) == 1)
        #expect(try await store.countEvent(key: "k", window: 60, now: 159) == 2)
        #expect(try await store.eventCount(key: "k", now: 159) == 2)
        #expect(try await store.countEvent(key: "other", window: 60, now: 159) == 1)
        // The window opened at 100 ends at 160; the next event opens a new one.
        #expect(try await store.eventCount(key: "k", now: 160) == 0)
        #expect(try await store.countEvent(key: "k", window: 60, now: 160) == 1)
        #expect(try await store.countEvent(key: "k", window: 60, now: 219) == 2)
        try await store.purgeExpired(now: 220)
        #expect(try await store.eventCount(key: "k", now: 200) == 0)
    }

    @Test(arguments: StoreKind.available) func concurrentEventsAreAllCounted(kind: StoreKind) async throws {
        let store = try await kind.make()
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await store.countEvent(key: "shared", window: 60, now: 100) } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        // Each event saw a different count: none was lost or counted twice.
        #expect(counts.sorted() == Array(1...20))
        #expect(try await store.eventCount(key: "shared", now: 100) == 20)
    }
}

// MARK: The OpenID Connect provider's rows (Store+OIDC)
extension StoreConformanceTests {
    @Test(arguments: StoreKind.available) func oidcClientsAddListRemove(kind: StoreKind) async throws {
        let store = try await kind.make()
        let wiki = OIDCClient(
            id: "zk-1", name: "Wiki", secretHash: "ab", redirectURIs: ["http://a/cb", "http://b/cb"],
            postLogoutURIs: ["http://a/bye"], created: 10)
        let app = OIDCClient(id: "zk-2", name: "App", secretHash: nil, redirectURIs: ["http://c/cb"], created: 11, idTokenAlg: "RS256")
        try await store.insertOIDCClient(wiki)
        try await store.insertOIDCClient(app)
        await #expect(throws: (any Error).self) { try await store.insertOIDCClient(wiki) }
        #expect(try await store.oidcClient(id: "zk-1") == wiki)
        #expect(try await store.oidcClient(id: "zk-2")?.isPublic == true)
        #expect(try await store.oidcClients() == [wiki, app])
        #expect(try await store.deleteOIDCClient(id: "zk-1"))
        #expect(!(try await store.deleteOIDCClient(id: "zk-1")))
        #expect(try await store.oidcClient(id: "zk-1") == nil)
    }

    @Test(arguments: StoreKind.available) func oidcPendingAuthorizationIsTakenOnce(kind: StoreKind) async throws {
        let store = try await kind.make()
        let p = PendingAuthorization(
            webOTTHash: "w", clientId: "zk-1", redirectURI: "http://a/cb", scope: "openid email",
            state: "s", nonce: nil, codeChallenge: "c", created: 100, expires: 200)
        try await store.insertPendingAuthorization(p)
        #expect(try await store.consumePendingAuthorization(webOTTHash: "w", now: 200) == nil)  // expired
        #expect(try await store.consumePendingAuthorization(webOTTHash: "w", now: 150) == p)
        #expect(try await store.consumePendingAuthorization(webOTTHash: "w", now: 150) == nil)
    }

    @Test(arguments: StoreKind.available) func oidcCodesAreRedeemedOnceAndReuseRevokes(kind: StoreKind) async throws {
        let store = try await kind.make()
        let code = AuthorizationCode(
            hash: "c1", clientId: "zk-1", redirectURI: "http://a/cb", userId: "a@example.com", mpinId: "aa",
            scope: "openid", nonce: "n", codeChallenge: nil, authTime: 90, created: 100, expires: 160)
        try await store.insertAuthorizationCode(code)
        #expect(!(try await store.authorizationCodeWasUsed(hash: "c1")))
        #expect(try await store.redeemAuthorizationCode(hash: "c1", now: 160) == nil)  // expired
        // Concurrent redemptions: exactly one wins.
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { try await store.redeemAuthorizationCode(hash: "c1", now: 120) != nil } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        #expect(try await store.authorizationCodeWasUsed(hash: "c1"))
        try await store.insertRegistration(pending("aa"))  // tokens answer only for an active identity
        #expect(try await store.activate(mpinId: "aa", now: 100))
        let token = OIDCAccessToken(
            hash: "t1", clientId: "zk-1", userId: "a@example.com", mpinId: "aa", scope: "openid", codeHash: "c1", expires: 500)
        try await store.insertOIDCAccessToken(token)
        #expect(try await store.oidcAccessToken(hash: "t1", now: 499) == token)
        #expect(try await store.oidcAccessToken(hash: "t1", now: 500) == nil)
        #expect(try await store.revokeOIDCAccessTokens(codeHash: "c1") == 1)
        #expect(try await store.oidcAccessToken(hash: "t1", now: 200) == nil)
        // Purge keeps used codes for a while (a late reuse is still recognised), then drops them.
        try await store.purgeExpiredOIDC(now: 200)
        #expect(try await store.authorizationCodeWasUsed(hash: "c1"))
        try await store.purgeExpiredOIDC(now: 160 + OIDCSchema.usedCodeMemory + 1)
        #expect(!(try await store.authorizationCodeWasUsed(hash: "c1")))
    }

    @Test(arguments: StoreKind.available) func oidcRefreshTokensRotateAndReuseRevokesTheFamily(kind: StoreKind) async throws {
        let store = try await kind.make()
        func refresh(_ hash: String) -> OIDCRefreshToken {
            OIDCRefreshToken(
                hash: hash, clientId: "zk-1", userId: "a@example.com", mpinId: "aa", scope: "openid offline_access",
                authTime: 90, family: "c1", expires: 1000)
        }
        try await store.insertOIDCRefreshToken(refresh("r1"))
        #expect(try await store.usedOIDCRefreshTokenFamily(hash: "r1") == nil)
        #expect(try await store.redeemOIDCRefreshToken(hash: "r1", now: 1000) == nil)  // expired
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { try await store.redeemOIDCRefreshToken(hash: "r1", now: 500) != nil } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        #expect(try await store.usedOIDCRefreshTokenFamily(hash: "r1") == "c1")
        try await store.insertOIDCRefreshToken(refresh("r2"))
        try await store.insertOIDCAccessToken(
            OIDCAccessToken(
                hash: "t2", clientId: "zk-1", userId: "a@example.com", mpinId: "aa",
                scope: "openid", codeHash: "c1", expires: 900))
        // Revoking the family takes the access tokens and every refresh token of it.
        #expect(try await store.revokeOIDCAccessTokens(codeHash: "c1") == 1)
        #expect(try await store.redeemOIDCRefreshToken(hash: "r2", now: 500) == nil)
        #expect(try await store.usedOIDCRefreshTokenFamily(hash: "r1") == nil)
    }
}
