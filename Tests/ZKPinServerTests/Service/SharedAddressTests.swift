import Foundation
import Testing

@testable import ZKPinServer

/// Finding 8 of the stranger-proof issue: people behind one NAT (or a proxy the server does not
/// trust) share an address. A stranger there who knows the owner's mpinId sends logins without a
/// valid token; they are rate-limited, but the owner's own logins from that address still work.
@Suite struct SharedAddressTests {
    @Test func aStrangerAtTheOwnersAddressCannotUseUpTheOwnersLogins() async throws {
        let h = try await Harness.make()
        let limit = h.rp.config.limits.invalidTokensPerIdentityAndAddress.limit
        try await h.run { t in
            let owner = try await TestUser.register(t, email: "nat@example.com", pin: 2580, outbox: h.outbox)
            // Every request of the in-process transport comes from one address: the stranger's
            // random U and V for the owner's mpinId, past the invalid-token limit.
            var statuses: [Int] = []
            for _ in 0..<(limit + 3) { statuses.append(try await owner.randomAttempt(t).status) }
            #expect(statuses.prefix(limit).allSatisfy { $0 == 401 }, "\(statuses)")
            #expect(statuses.suffix(3).allSatisfy { $0 == 429 }, "\(statuses)")
            // The owner, from the same address, signs in, and nothing counted against the PIN.
            #expect(try await owner.login(t).status == 200)
            #expect(try await h.rp.store.identity(mpinId: owner.mpinId)?.failedAttempts == 0)
            // A genuine wrong PIN is still a wrong PIN (401 with attempts left), not a 429.
            #expect(try await owner.login(t, pin: 1111).status == 401)
        }
    }
}
