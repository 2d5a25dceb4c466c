import Foundation
import Testing

@testable import ZKPinServer

/// The one-time code operations (Store+OTP.swift) on every store: single use under
/// concurrency, expiry, one live code per person and service, services by the `otp` flag.
@Suite struct OTPConformanceTests {
    func code(_ id: String, user: String = "a@example.com", client: String = "svc", created: Int = 1000, ttl: Int = 90) -> OneTimeCode {
        OneTimeCode(id: id, userId: user, clientId: client, mpinId: "m", hash: "h-\(id)", created: created, expires: created + ttl)
    }

    @Test(arguments: StoreKind.available) func twoConcurrentChecksOfOneCodeGiveExactlyOneTrue(kind: StoreKind) async throws {
        let store = try await kind.make()
        for round in 0..<5 {
            try await store.insertOTP(code("c\(round)"))
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<12 { group.addTask { try await store.consumeOTP(id: "c\(round)", now: 1001) } }
                var wins = 0
                for try await won in group where won { wins += 1 }
                return wins
            }
            #expect(wins == 1, "\(kind) round \(round): \(wins) checks took the code")
        }
    }

    @Test(arguments: StoreKind.available) func aCodeExpiresAndIsSingleUse(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertOTP(code("e1", ttl: 90))
        #expect(try await store.liveOTPs(userId: "a@example.com", clientId: "svc", now: 1089).map(\.id) == ["e1"])
        #expect(try await store.liveOTPs(userId: "a@example.com", clientId: "svc", now: 1090).isEmpty)
        #expect(try await store.consumeOTP(id: "e1", now: 1090) == false)
        try await store.insertOTP(code("e2", ttl: 90))
        #expect(try await store.consumeOTP(id: "e2", now: 1089))
        #expect(try await store.consumeOTP(id: "e2", now: 1089) == false)
        // The purge empties expired codes.
        try await store.insertOTP(code("e3", ttl: 90))
        try await store.purgeExpiredOTPs(now: 2000)
        #expect(try await store.expiringRowCounts()["otp_codes"] == 0)
    }

    @Test(arguments: StoreKind.available) func aNewCodeReplacesTheLiveOneOfTheSamePersonAndServiceOnly(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertOTP(code("r1"))
        try await store.insertOTP(code("other-service", client: "svc2"))
        try await store.insertOTP(code("other-person", user: "b@example.com"))
        try await store.insertOTP(code("r2", created: 1010))
        #expect(try await store.liveOTPs(userId: "a@example.com", clientId: "svc", now: 1011).map(\.id) == ["r2"])
        #expect(try await store.liveOTPs(userId: "a@example.com", clientId: "svc2", now: 1011).map(\.id) == ["other-service"])
        #expect(try await store.liveOTPs(userId: "b@example.com", clientId: "svc", now: 1011).map(\.id) == ["other-person"])
        let found = try await store.liveOTPs(userId: "a@example.com", clientId: "svc", now: 1011).first
        #expect(found == code("r2", created: 1010))
    }

    @Test(arguments: StoreKind.available) func servicesAreTheClientsWithTheFlag(kind: StoreKind) async throws {
        let store = try await kind.make()
        _ = try await ClientRegistry.add(
            to: store, name: "Wiki", redirectURIs: ["https://wiki.example/cb"], postLogoutURIs: [], isPublic: false, now: 1)
        let (vpn, secret) = try await ClientRegistry.add(
            to: store, name: "VPN", redirectURIs: [], postLogoutURIs: [], isPublic: false, otp: true, now: 2)
        #expect(secret != nil && vpn.otp)
        #expect(try await store.otpServices().map(\.name) == ["VPN"])
        #expect(try await store.oidcClient(id: vpn.id)?.otp == true)
        await #expect(throws: ClientRegistry.Invalid.self) {
            _ = try await ClientRegistry.add(to: store, name: "Open", redirectURIs: [], postLogoutURIs: [], isPublic: true, otp: true, now: 3)
        }
        // Removing the service removes its codes.
        try await store.insertOTP(code("gone", client: vpn.id))
        #expect(try await store.deleteOIDCClient(id: vpn.id))
        #expect(try await store.liveOTPs(userId: "a@example.com", clientId: vpn.id, now: 1001).isEmpty)
    }

    @Test(arguments: StoreKind.available) func aCountGivenBackNeverGoesBelowZero(kind: StoreKind) async throws {
        let store = try await kind.make()
        #expect(try await store.countEvent(key: "k", window: 60, now: 1000) == 1)
        #expect(try await store.countEvent(key: "k", window: 60, now: 1000) == 2)
        try await store.uncountEvent(key: "k")
        try await store.uncountEvent(key: "k")
        try await store.uncountEvent(key: "k")
        #expect(try await store.eventCount(key: "k", now: 1000) == 0)
        #expect(try await store.countEvent(key: "k", window: 60, now: 1000) == 1)
    }
}
