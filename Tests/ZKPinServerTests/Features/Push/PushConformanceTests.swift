import Foundation
import Testing

@testable import ZKPinServer

/// The push queue (Store+Push.swift) on every store: concurrent claimers never take the same
/// delivery, a claim's lease keeps it from others until it runs out, and only active
/// identities' subscriptions are listed, claimed or kept by the purge.
@Suite struct PushConformanceTests {
    func subscription(_ id: String, mpinId: String = "aa", endpoint: String? = nil) -> PushSubscription {
        PushSubscription(
            id: id, userId: "a@example.com", mpinId: mpinId, endpoint: endpoint ?? "https://fcm.googleapis.com/fcm/send/\(id)",
            p256dh: "k", auth: "s", created: 1000)
    }

    func delivery(_ id: String, to subscription: String, expires: Int = 2000) -> PushDelivery {
        PushDelivery(id: id, subscriptionId: subscription, payload: "{}", urgency: "high", created: 1000, expires: expires, nextAttempt: 1000)
    }

    func storeWithAlice(_ kind: StoreKind) async throws -> Store {
        let store = try await kind.make()
        try await store.insertRegistration(pending("aa"))
        #expect(try await store.activate(mpinId: "aa", now: 1000))
        return store
    }

    @Test(arguments: StoreKind.available) func concurrentClaimersNeverTakeTheSameDelivery(kind: StoreKind) async throws {
        let store = try await storeWithAlice(kind)
        try await store.upsertPushSubscription(subscription("s1"))
        try await store.queuePushDeliveries((0..<40).map { delivery("d\($0)", to: "s1") })
        let taken = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { try await store.claimPushDeliveries(now: 1001, lease: 60, limit: 8).map(\.0.id) } }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(taken.count == Set(taken).count, "\(kind): a delivery was claimed twice")
        #expect(Set(taken).count <= 40)
        // Everything left is claimed by later passes, nothing twice within the lease.
        var all = Set(taken)
        while true {
            let more = try await store.claimPushDeliveries(now: 1001, lease: 60, limit: 8).map(\.0.id)
            if more.isEmpty { break }
            #expect(all.isDisjoint(with: more))
            all.formUnion(more)
        }
        #expect(all.count == 40)
        // After the lease, an unsettled one (its sender died) is claimed again, attempts counted.
        let again = try await store.claimPushDeliveries(now: 1061, lease: 60, limit: 100)
        #expect(again.count == 40 && again.allSatisfy { $0.0.attempts == 2 })
    }

    @Test(arguments: StoreKind.available) func finishRetryDropAndPurge(kind: StoreKind) async throws {
        let store = try await storeWithAlice(kind)
        try await store.upsertPushSubscription(subscription("s1"))
        try await store.queuePushDeliveries([delivery("d1", to: "s1"), delivery("d2", to: "s1"), delivery("d3", to: "s1", expires: 1100)])
        let claimed = try await store.claimPushDeliveries(now: 1001, lease: 60, limit: 10)
        #expect(claimed.map(\.1.endpoint) == Array(repeating: "https://fcm.googleapis.com/fcm/send/s1", count: 3))
        try await store.finishPushDelivery(id: "d1", subscriptionId: "s1", now: 1002)
        try await store.retryPushDelivery(id: "d2", at: 1500)
        #expect(try await store.pushSubscriptions(mpinId: "aa").first?.lastDelivery == 1002)
        #expect(try await store.claimPushDeliveries(now: 1499, lease: 60, limit: 10).isEmpty)
        #expect(try await store.claimPushDeliveries(now: 1500, lease: 60, limit: 10).map(\.0.id) == ["d2"])
        // Expired ones go with the purge and are never claimed.
        try await store.purgeExpiredPush(now: 1100)
        #expect(try await store.queuedPushDeliveries() == 1)
        try await store.dropPushDelivery(id: "d2")
        #expect(try await store.queuedPushDeliveries() == 0)
    }

    @Test(arguments: StoreKind.available) func oneRowPerEndpointAndOnlyActiveIdentities(kind: StoreKind) async throws {
        let store = try await storeWithAlice(kind)
        try await store.insertRegistration(pending("bb"))
        #expect(try await store.activate(mpinId: "bb", now: 1000))
        try await store.upsertPushSubscription(subscription("s1", endpoint: "https://fcm.googleapis.com/x"))
        // The same endpoint given again (another identity of the browser): one row, the newer.
        try await store.upsertPushSubscription(subscription("s2", mpinId: "bb", endpoint: "https://fcm.googleapis.com/x"))
        #expect(try await store.pushSubscriptions(mpinId: "aa").isEmpty)
        #expect(try await store.activePushSubscriptions(userId: "a@example.com").map(\.id) == ["s2"])
        try await store.upsertPushSubscription(subscription("s3"))
        try await store.queuePushDeliveries([delivery("d1", to: "s2"), delivery("d2", to: "s3")])
        #expect(try await store.deletePushSubscription(mpinId: "aa", idOrEndpoint: "https://fcm.googleapis.com/fcm/send/s3"))
        #expect(!(try await store.deletePushSubscription(mpinId: "aa", idOrEndpoint: "s2")), "another identity's")
        #expect(try await store.queuedPushDeliveries() == 1)
        _ = try await store.revoke(userId: "a@example.com")
        #expect(try await store.activePushSubscriptions(userId: "a@example.com").isEmpty)
        #expect(try await store.claimPushDeliveries(now: 1001, lease: 60, limit: 10).isEmpty)
        try await store.purgeExpiredPush(now: 1001)
        #expect(try await store.pushSubscriptions(mpinId: "bb").isEmpty)
        #expect(try await store.queuedPushDeliveries() == 0)
    }
}
