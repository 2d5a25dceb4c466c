import Foundation
import Testing

@testable import ZKPinServer

/// CIBA requests on both stores: one answer wins, and concurrent polls of an answered request
/// hand it over exactly once (the poll's locked transaction).
@Suite struct BackchannelConformanceTests {
    static func request(_ id: String, now: Int = 1000) -> BackchannelRequest {
        BackchannelRequest(
            id: id, clientId: "zk-bank", userId: "alice@example.com", scope: "openid", bindingMessage: "Pay 100 EUR to Bob",
            authorizationDetails: #"[{"type":"payment_initiation","amount":"100"}]"#, notificationToken: nil, created: now,
            expires: now + 300, interval: 5)
    }

    @Test(arguments: StoreKind.available) func concurrentAnswersAndPollsHaveOneWinner(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertBackchannelRequest(Self.request("r1"))
        #expect(try await store.backchannelRequest(id: "r1") == Self.request("r1"))
        let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<8 {
                group.addTask {
                    try await store.answerBackchannelRequest(
                        id: "r1", userId: "alice@example.com", approval: i % 2 == 0 ? "{\"n\":\(i)}" : nil, mpinId: "m\(i)", now: 1001) != nil
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(answers == 1)
        // Another person's device cannot answer it, nor anyone after expiry.
        try await store.insertBackchannelRequest(Self.request("r2"))
        #expect(try await store.answerBackchannelRequest(id: "r2", userId: "mallory@example.com", approval: nil, mpinId: "m", now: 1001) == nil)
        #expect(try await store.answerBackchannelRequest(id: "r2", userId: "alice@example.com", approval: nil, mpinId: "m", now: 1300) == nil)

        let verdicts = try await withThrowingTaskGroup(of: PollingRules.Verdict?.self) { group in
            for _ in 0..<8 {
                group.addTask { try await store.pollBackchannelRequest(id: "r1", clientId: "zk-bank", now: 1010)?.verdict }
            }
            return try await group.reduce(into: [PollingRules.Verdict?]()) { $0.append($1) }
        }
        let handedOver = verdicts.filter { $0 == .issue || $0 == .denied }
        #expect(handedOver.count == 1, "\(verdicts)")
        #expect(verdicts.filter { $0 == .used }.count == 7, "\(verdicts)")
        #expect(try await store.pollBackchannelRequest(id: "r1", clientId: "zk-other", now: 1010) == nil)
    }

    @Test(arguments: StoreKind.available) func pendingRequestsAreThePersonsLiveOnes(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertBackchannelRequest(Self.request("a", now: 1000))
        try await store.insertBackchannelRequest(Self.request("b", now: 1100))
        var other = Self.request("c")
        other.userId = "bob@example.com"
        try await store.insertBackchannelRequest(other)
        #expect(try await store.pendingBackchannelRequests(userId: "alice@example.com", now: 1200).map(\.id) == ["a", "b"])
        #expect(try await store.pendingBackchannelRequests(userId: "alice@example.com", now: 1350).map(\.id) == ["b"])
        try await store.purgeExpiredBackchannelRequests(now: 1000 + 300 + 601)
        #expect(try await store.backchannelRequest(id: "a") == nil)
        #expect(try await store.backchannelRequest(id: "b") != nil)
    }
}
