import Foundation
import Testing

@testable import ZKPinServer

/// The conformance suite of the login's store transactions (`admitPass1`, `startLogin`,
/// `finishLogin`, `takeAuthToken`) on every store: the same rules as the single calls they fold together.
@Suite struct LoginTransactionConformanceTests {
    func challenge(_ id: String, _ mpinId: String, created: Int = 1000) -> Challenge {
        Challenge(id: id, mpinId: mpinId, u: [1, 2], ut: [5], y: [3], date: 7, created: created, expires: created + 15)
    }

    func token(_ mpinId: String, _ outcome: AuthToken.Outcome, hash: String) -> AuthToken {
        AuthToken(hash: hash, mpinId: mpinId, userId: "a@example.com", outcome: outcome, attemptsLeft: 99, accessCode: nil, expires: 2000)
    }

    func activeIdentity(_ store: Store, _ mpinId: String) async throws {
        try await store.insertRegistration(pending(mpinId))
        #expect(try await store.activate(mpinId: mpinId, now: 1000))
    }

    @Test(arguments: StoreKind.available) func startTakesOnlyTheNamedChallengeAndReserves(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "s1")
        try await store.insertChallenge(challenge("k1", "s1"))
        try await store.insertChallenge(challenge("k2", "s1", created: 1001))
        // Another identity's id, an unknown id, an expired one: nothing changes.
        #expect(try await store.startLogin(challengeID: "k1", mpinId: "other", now: 1002, maxAttempts: 3, hold: 30) == .noChallenge)
        #expect(try await store.startLogin(challengeID: "nope", mpinId: "s1", now: 1002, maxAttempts: 3, hold: 30) == .noChallenge)
        #expect(try await store.startLogin(challengeID: "k1", mpinId: "s1", now: 1015, maxAttempts: 3, hold: 30) == .noChallenge)
        guard case .started(let c, let identity) = try await store.startLogin(challengeID: "k2", mpinId: "s1", now: 1002, maxAttempts: 3, hold: 30)
        else { Issue.record("no login started"); return }
        #expect(c.id == "k2" && c.u == [1, 2] && c.ut == [5] && c.y == [3] && c.date == 7)
        #expect(identity.userId == "a@example.com" && identity.state == .active && identity.failedAttempts == 0)
        // Single use; k1 (not named) is still there for its own pass 2.
        #expect(try await store.startLogin(challengeID: "k2", mpinId: "s1", now: 1002, maxAttempts: 3, hold: 30) == .noChallenge)
        #expect(try await store.consumeChallenge(id: "k1", mpinId: "s1", now: 1002) != nil)
        // The reservation counts: two more fill the budget of three.
        #expect(try await store.reserveAttempt(mpinId: "s1", maxAttempts: 3, now: 1002, hold: 30) == .reserved)
        #expect(try await store.reserveAttempt(mpinId: "s1", maxAttempts: 3, now: 1002, hold: 30) == .reserved)
        try await store.insertChallenge(challenge("k3", "s1"))
        #expect(try await store.startLogin(challengeID: "k3", mpinId: "s1", now: 1002, maxAttempts: 3, hold: 30) == .refused(.busy))
        // A refused reservation consumed the challenge all the same.
        #expect(try await store.consumeChallenge(id: "k3", mpinId: "s1", now: 1002) == nil)
    }

    @Test(arguments: StoreKind.available) func startRefusesBlockedRevokedAndUnknown(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertChallenge(challenge("u1", "ghost"))
        #expect(try await store.startLogin(challengeID: "u1", mpinId: "ghost", now: 1001, maxAttempts: 3, hold: 30) == .refused(.unknown))
        try await activeIdentity(store, "r1")
        _ = try await store.revoke(userId: "a@example.com")
        try await store.insertChallenge(challenge("r1c", "r1"))
        #expect(try await store.startLogin(challengeID: "r1c", mpinId: "r1", now: 1001, maxAttempts: 3, hold: 30) == .refused(.revoked))
        try await activeIdentity(store, "b1")
        for _ in 0..<3 {
            _ = try await store.reserveAttempt(mpinId: "b1", maxAttempts: 3, now: 1001, hold: 30)
            _ = try await store.settleAttempt(mpinId: "b1", .wrongPIN(maxAttempts: 3))
        }
        try await store.insertChallenge(challenge("b1c", "b1"))
        #expect(try await store.startLogin(challengeID: "b1c", mpinId: "b1", now: 1001, maxAttempts: 3, hold: 30) == .refused(.blocked))
    }

    @Test(arguments: StoreKind.available) func finishSettlesAndStoresTheVerdict(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "f1")
        // Wrong PIN: counted, attempts left from the settled count, stored under its hash.
        _ = try await store.reserveAttempt(mpinId: "f1", maxAttempts: 3, now: 1001, hold: 30)
        #expect(
            try await store.finishLogin(.wrongPIN(maxAttempts: 3), token: token("f1", .wrongPIN, hash: "t1"), maxAttempts: 3, audit: nil)
                == AttemptResult(failedAttempts: 1, state: .active))
        let t1 = try #require(try await store.consumeAuthToken(hash: "t1", now: 1002))
        #expect(t1.outcome == .wrongPIN && t1.attemptsLeft == 2 && t1.userId == "a@example.com" && t1.accessCode == nil)
        // Neutral (invalid token): not counted.
        _ = try await store.reserveAttempt(mpinId: "f1", maxAttempts: 3, now: 1001, hold: 30)
        #expect(
            try await store.finishLogin(.neutral, token: token("f1", .invalidToken, hash: "t2"), maxAttempts: 3, audit: nil)
                == AttemptResult(failedAttempts: 1, state: .active))
        #expect(try await store.consumeAuthToken(hash: "t2", now: 1002)?.outcome == .invalidToken)
        // Success: the count is reset and the login time kept.
        _ = try await store.reserveAttempt(mpinId: "f1", maxAttempts: 3, now: 1001, hold: 30)
        #expect(
            try await store.finishLogin(.success(now: 1003), token: token("f1", .success, hash: "t3"), maxAttempts: 3, audit: nil)
                == AttemptResult(failedAttempts: 0, state: .active))
        #expect(try await store.consumeAuthToken(hash: "t3", now: 1004)?.attemptsLeft == 3)
        #expect(try await store.identity(mpinId: "f1")?.lastLogin == 1003)
        // The wrong PIN that blocks is stored as `blocked`, with no attempts left.
        for (n, hash) in ["t4", "t5", "t6"].enumerated() {
            _ = try await store.reserveAttempt(mpinId: "f1", maxAttempts: 3, now: 1005, hold: 30)
            let result = try await store.finishLogin(.wrongPIN(maxAttempts: 3), token: token("f1", .wrongPIN, hash: hash), maxAttempts: 3, audit: nil)
            #expect(result == AttemptResult(failedAttempts: n + 1, state: n == 2 ? .blocked : .active))
        }
        let last = try #require(try await store.consumeAuthToken(hash: "t6", now: 1006))
        #expect(last.outcome == .blocked && last.attemptsLeft == 0)
        // No identity: no token.
        #expect(try await store.finishLogin(.neutral, token: token("ghost", .invalidToken, hash: "t7"), maxAttempts: 3, audit: nil) == nil)
        #expect(try await store.consumeAuthToken(hash: "t7", now: 1006) == nil)
    }

    @Test(arguments: StoreKind.available) func concurrentStartsNeverExceedTheBudget(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "c1")
        for i in 0..<20 { try await store.insertChallenge(challenge("cc\(i)", "c1")) }
        let started = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<20 {
                group.addTask {
                    if case .started = try await store.startLogin(challengeID: "cc\(i)", mpinId: "c1", now: 1001, maxAttempts: 3, hold: 30) {
                        return true
                    }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(started == 3)
    }

    /// A pass 2 that finishes the login stores no token: it settles, audits and counts only.
    @Test(arguments: StoreKind.available) func finishWithoutATokenSettlesOnly(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "n1")
        for attempt in 0..<3 {
            _ = try await store.reserveAttempt(mpinId: "n1", maxAttempts: 3, now: 1001, hold: 30)
            let result = try await store.finishLogin(.wrongPIN(maxAttempts: 3), mpinId: "n1", token: nil, maxAttempts: 3, audit: nil)
            #expect(result == AttemptResult(failedAttempts: attempt + 1, state: attempt == 2 ? .blocked : .active))
        }
        #expect(try await store.expiringRowCounts()["auth_tokens"] == 0)
        #expect(try await store.auditLog(limit: 10).isEmpty)
        try await activeIdentity(store, "n2")
        _ = try await store.reserveAttempt(mpinId: "n2", maxAttempts: 3, now: 1001, hold: 30)
        let row = AuditEvent(time: 1002, kind: "login", userId: "a@example.com", mpinId: "n2", address: "10.0.0.9")
        #expect(try await store.finishLogin(.success(now: 1002), mpinId: "n2", token: nil, maxAttempts: 3, audit: row) != nil)
        #expect(try await store.auditLog(limit: 10) == [row])
        #expect(try await store.identity(mpinId: "n2")?.lastLogin == 1002)
        #expect(try await store.finishLogin(.neutral, mpinId: "ghost", token: nil, maxAttempts: 3, audit: nil) == nil)
    }

    @Test(arguments: StoreKind.available) func finishStoresTheAuditRowWithTheVerdict(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "a1")
        _ = try await store.reserveAttempt(mpinId: "a1", maxAttempts: 3, now: 1001, hold: 30)
        let row = AuditEvent(time: 1002, kind: "login_pass2", userId: "a@example.com", mpinId: "a1", address: "10.0.0.9")
        _ = try await store.finishLogin(.success(now: 1002), token: token("a1", .success, hash: "a-t"), maxAttempts: 3, audit: row)
        #expect(try await store.auditLog(limit: 1) == [row])
        // None given, none written; no identity, no row either.
        _ = try await store.reserveAttempt(mpinId: "a1", maxAttempts: 3, now: 1001, hold: 30)
        _ = try await store.finishLogin(.neutral, token: token("a1", .invalidToken, hash: "a-u"), maxAttempts: 3, audit: nil)
        _ = try await store.finishLogin(.success(now: 1003), token: token("ghost", .success, hash: "a-v"), maxAttempts: 3, audit: row)
        #expect(try await store.auditLog(limit: 10).filter { $0.kind == "login_pass2" }.count == 1)
    }

    @Test(arguments: StoreKind.available) func challengesAreRecordedOnlyForActiveIdentities(kind: StoreKind) async throws {
        let store = try await kind.make()
        #expect(try await store.admitPass1(challenge("g1", "ghost"), counting: [], now: 1000) == .identity(nil))
        try await activeIdentity(store, "i1")
        #expect(try await store.admitPass1(challenge("i1c", "i1"), counting: [], now: 1000) == .identity(.active))
        #expect(try await store.consumeChallenge(id: "i1c", mpinId: "i1", now: 1001) != nil)
        _ = try await store.revoke(userId: "a@example.com")
        #expect(try await store.admitPass1(challenge("i1d", "i1"), counting: [], now: 1000) == .identity(.revoked))
        #expect(try await store.consumeChallenge(id: "i1d", mpinId: "i1", now: 1001) == nil)
        #expect(try await store.consumeChallenge(id: "g1", mpinId: "ghost", now: 1001) == nil)
    }

    @Test(arguments: StoreKind.available) func pass1CountsItsLimitsBeforeRecordingTheChallenge(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "l1")
        let limits = [CountedEvent(key: "addr", limit: 3, window: 60), CountedEvent(key: "identity", limit: 2, window: 60)]
        #expect(try await store.admitPass1(challenge("l-a", "l1"), counting: limits, now: 1000) == .identity(.active))
        #expect(try await store.admitPass1(challenge("l-b", "l1"), counting: limits, now: 1000) == .identity(.active))
        // The identity's limit of 2 is used up: counted, nothing recorded.
        #expect(try await store.admitPass1(challenge("l-c", "l1"), counting: limits, now: 1000) == .limited)
        #expect(try await store.consumeChallenge(id: "l-c", mpinId: "l1", now: 1001) == nil)
        #expect(try await store.eventCount(key: "addr", now: 1000) == 3)
        #expect(try await store.eventCount(key: "identity", now: 1000) == 3)
        // Either event over its limit refuses; an unknown identity is counted too.
        #expect(try await store.admitPass1(challenge("l-d", "ghost"), counting: [limits[0]], now: 1000) == .limited)
        #expect(
            try await store.admitPass1(challenge("l-e", "ghost"), counting: [CountedEvent(key: "other", limit: 1, window: 60)], now: 1000)
                == .identity(nil))
        // A window that has run out starts again.
        #expect(try await store.admitPass1(challenge("l-f", "l1", created: 1060), counting: limits, now: 1060) == .identity(.active))
        #expect(try await store.consumeChallenge(id: "l-f", mpinId: "l1", now: 1061) != nil)
        #expect(try await store.consumeChallenge(id: "l-a", mpinId: "l1", now: 1001) != nil)
    }

    @Test(arguments: StoreKind.available) func takingAnAuthTokenAnswersItsIdentitysState(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "t1")
        try await store.insertAuthToken(token("t1", .success, hash: "tk1"))
        try await store.insertAuthToken(token("t1", .success, hash: "tk2"))
        try await store.insertAuthToken(token("nobody", .success, hash: "tk3"))
        let first = try #require(try await store.takeAuthToken(hash: "tk1", now: 1001, loginAudit: nil))
        #expect(first.token.mpinId == "t1" && first.token.outcome == .success && first.identityState == .active)
        #expect(try await store.takeAuthToken(hash: "tk1", now: 1001, loginAudit: nil) == nil)  // single use
        _ = try await store.revoke(userId: "a@example.com")
        #expect(try await store.takeAuthToken(hash: "tk2", now: 1001, loginAudit: nil)?.identityState == .revoked)
        let orphan = try #require(try await store.takeAuthToken(hash: "tk3", now: 1001, loginAudit: nil))
        #expect(orphan.identityState == nil)
        try await store.insertAuthToken(token("t1", .success, hash: "tk4"))
        #expect(try await store.takeAuthToken(hash: "tk4", now: 2000, loginAudit: nil) == nil)  // expired
        #expect(try await store.auditLog(limit: 10).filter { $0.kind == "login" }.isEmpty)
    }

    @Test(arguments: StoreKind.available) func aCompleteLoginIsAuditedWithItsTake(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await activeIdentity(store, "w1")
        var withCode = token("w1", .success, hash: "w-code")
        withCode.accessCode = "123456"
        for t in [token("w1", .success, hash: "w-ok"), token("w1", .wrongPIN, hash: "w-pin"), withCode] { try await store.insertAuthToken(t) }
        let at = (time: 1001, address: "10.0.0.7")
        _ = try await store.takeAuthToken(hash: "w-pin", now: 1001, loginAudit: at)
        _ = try await store.takeAuthToken(hash: "w-code", now: 1001, loginAudit: at)
        #expect(try await store.auditLog(limit: 10).filter { $0.kind == "login" }.isEmpty)  // not complete: no row
        _ = try await store.takeAuthToken(hash: "w-ok", now: 1001, loginAudit: at)
        let expected = AuditEvent(time: 1001, kind: "login", userId: "a@example.com", mpinId: "w1", address: "10.0.0.7")
        #expect(try await store.auditLog(limit: 10).filter { $0.kind == "login" } == [expected])
        // A revoked identity's success is not a login.
        try await store.insertAuthToken(token("w1", .success, hash: "w-late"))
        _ = try await store.revoke(userId: "a@example.com")
        _ = try await store.takeAuthToken(hash: "w-late", now: 1001, loginAudit: at)
        #expect(try await store.auditLog(limit: 10).filter { $0.kind == "login" }.count == 1)
    }
}
