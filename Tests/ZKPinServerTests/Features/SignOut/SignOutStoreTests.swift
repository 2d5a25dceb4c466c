import Foundation
import Testing

@testable import ZKPinServer

/// The SignOut feature's store calls on both databases: ending a session's sign-ins or an ended
/// identity's revokes their token families and queues one logout per back-channel site, once,
/// even when instances race; the queue is leased, retried and dropped at its window's end.
@Suite struct SignOutStoreTests {
    static func signedIn(_ store: Store, mpinId: String, family: String, client: String, sid: String?) async throws {
        try await store.insertAuthorizationCode(
            AuthorizationCode(
                hash: family, clientId: client, redirectURI: "https://a/cb", userId: "a@example.com", mpinId: mpinId, scope: "openid",
                nonce: nil, codeChallenge: nil, authTime: 1000, created: 1000, expires: 1060, sid: sid))
        let access = OIDCAccessToken(
            hash: "at-" + family, clientId: client, userId: "a@example.com", mpinId: mpinId, scope: "openid", codeHash: family, expires: 9_999)
        let login = OIDCLogin(family: family, clientId: client, userId: "a@example.com", mpinId: mpinId, sid: sid, created: 1000, expires: 9_999)
        #expect(try await store.insertOIDCTokens(access, refresh: nil, login: login))
    }

    @Test(arguments: StoreKind.available) func endingIsOnceAndQueuesOnlyBackchannelSites(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("m1"))
        #expect(try await store.activate(mpinId: "m1", now: 1000))
        let told = OIDCClient(
            id: "zk-told", name: "Told", secretHash: "h", redirectURIs: ["https://a/cb"], created: 1, backchannelLogoutURI: "https://a/logout")
        let silent = OIDCClient(id: "zk-silent", name: "Silent", secretHash: "h", redirectURIs: ["https://b/cb"], created: 1)
        try await store.insertOIDCClient(told)
        try await store.insertOIDCClient(silent)
        try await Self.signedIn(store, mpinId: "m1", family: "f1", client: told.id, sid: "s1")
        try await Self.signedIn(store, mpinId: "m1", family: "f2", client: silent.id, sid: "s1")
        try await Self.signedIn(store, mpinId: "m1", family: "f3", client: told.id, sid: "s2")

        // A sign-out ends its session's sign-ins only; two instances racing end each once.
        async let a = store.endSiteLogins(sid: "s1", now: 1100, window: 600)
        async let b = store.endSiteLogins(sid: "s1", now: 1100, window: 600)
        let ended = try await a + b
        #expect(ended.map(\.login.family).sorted() == ["f1", "f2"])
        #expect(try await store.oidcAccessTokenRow(hash: "at-f1") == false)
        #expect(try await store.oidcAccessTokenRow(hash: "at-f3") == true)
        #expect(try await store.logoutQueueLength() == 1, "only the back-channel site is told")
        // Nothing to end while the identity is active.
        #expect(try await store.endSiteLoginsOfEndedIdentities(now: 1100, window: 600, limit: 10).isEmpty)

        #expect(try await store.revoke(userId: "a@example.com") == 1)
        async let c = store.endSiteLoginsOfEndedIdentities(now: 1200, window: 600, limit: 10)
        async let d = store.endSiteLoginsOfEndedIdentities(now: 1200, window: 600, limit: 10)
        #expect(try await (c + d).map(\.login.family) == ["f3"])
        #expect(try await store.logoutQueueLength() == 2)

        // Leased: a second claim before the lease ends takes nothing.
        let claimed = try await store.claimLogoutDeliveries(now: 1200, lease: 60, limit: 10)
        #expect(claimed.count == 2 && claimed.allSatisfy { $0.attempts == 1 && $0.clientId == told.id })
        #expect(try await store.claimLogoutDeliveries(now: 1230, lease: 60, limit: 10).isEmpty)
        try await store.finishLogoutDelivery(id: claimed[0].id)
        try await store.retryLogoutDelivery(id: claimed[1].id, at: 1300)
        #expect(try await store.claimLogoutDeliveries(now: 1299, lease: 60, limit: 10).isEmpty)
        #expect(try await store.claimLogoutDeliveries(now: 1300, lease: 60, limit: 10).map(\.attempts) == [2])
        // Its window (600 s from 1100 or 1200) closes: dropped and counted.
        #expect(try await store.dropExpiredLogoutDeliveries(now: 1900) == 1)
        #expect(try await store.logoutQueueLength() == 0)
    }
}
