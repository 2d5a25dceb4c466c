import Foundation
import Testing
import ZKPinWire

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

    /// Issue 29, finding 1: from the owner's own address, a stranger's pass 1s for the owner's
    /// mpinId used up the pass-1 counts of that address (per identity and address, per
    /// address) and the owner's logins failed with 429. The holder proof that the owner's last
    /// login gave counts the owner's pass 1 in the identity's own budget instead.
    @Test func aFloodOfPass1AtTheOwnersAddressLeavesTheOwnerSigningIn() async throws {
        let h = try await Harness.make { o in
            o.pass1PerIdentity = 10
            o.pass1PerAddress = 25
        }
        try await h.run { t in
            let owner = try await TestUser.register(t, email: "office@example.com", pin: 3691, outbox: h.outbox)
            let first = try await owner.login(t)
            #expect(first.status == 200)
            let holder = try #require(try first.json(AuthenticateResponse.self).holder)
            #expect(holder.count == 64)
            // The stranger floods pass 1 for the owner's mpinId from the same address.
            var statuses: [Int] = []
            for _ in 0..<30 { statuses.append(try await owner.strangerPass1(t).status) }
            #expect(statuses.suffix(5).allSatisfy { $0 == 429 }, "\(statuses)")
            // Without the proof the owner is refused as the stranger is (what the attack did).
            #expect(try await owner.login(t).status == 429)
            // With it the owner signs in while the flood goes on, again and again.
            for round in 0..<3 {
                for _ in 0..<5 { #expect(try await owner.strangerPass1(t).status == 429) }
                let login = try await owner.login(t, holder: holder)
                #expect(login.status == 200, "round \(round): \(login.status) \(login.text)")
            }
            // A proof that is not this identity's counts as none.
            #expect(try await owner.login(t, holder: String(repeating: "0", count: 64)).status == 429)
            let other = try await TestUser.register(t, email: "other@example.com", pin: 1470, outbox: h.outbox)
            #expect(try await other.login(t, holder: holder).status == 429)
        }
    }

    /// A stranger on a freshly registered owner's address (an office, a carrier NAT) floods
    /// pass 1 for the owner's mpinId before the owner's first login: the holder proof given
    /// with share 1 counts that first login in the identity's own budget.
    @Test func aFreshlyRegisteredOwnerSignsInThroughAFlood() async throws {
        let h = try await Harness.make { o in
            o.pass1PerIdentity = 10
            o.pass1PerAddress = 25
        }
        try await h.run { t in
            let owner = try await TestUser.register(t, email: "new@example.com", pin: 3692, outbox: h.outbox)
            let holder = try #require(owner.registrationHolder)
            #expect(holder.count == 64 && holder == h.rp.links.holderProof(mpinId: owner.mpinId))
            var statuses: [Int] = []
            for _ in 0..<30 { statuses.append(try await owner.strangerPass1(t).status) }
            #expect(statuses.suffix(5).allSatisfy { $0 == 429 }, "\(statuses)")
            var logins: [Int] = []
            for _ in 0..<10 {
                #expect(try await owner.strangerPass1(t).status == 429)
                logins.append(try await owner.login(t, holder: holder).status)
            }
            #expect(logins == Array(repeating: 200, count: 10), "\(logins)")
        }
    }

    /// The same for time permits: a stranger's permit requests for the owner's mpinId from the
    /// owner's address used up the count per identity and address; with the holder proof the
    /// owner's requests are counted per identity.
    @Test func strangersPermitRequestsAtTheOwnersAddressLeaveTheOwnersPermits() async throws {
        let h = try await Harness.make(permits: true)
        let rule = h.rp.config.limits.timePermitsPerIdentityAndAddress
        try await h.run { t in
            let owner = try await TestUser.register(t, email: "permits@example.com", pin: 2468, outbox: h.outbox, usePermits: true)
            let first = try await owner.login(t)
            #expect(first.status == 200)
            let holder = try #require(try first.json(AuthenticateResponse.self).holder)
            var statuses: [Int] = []
            for _ in 0..<(rule.limit + 2) { statuses.append(try await t.get("/rps/timePermit/\(owner.mpinId)").status) }
            #expect(statuses.suffix(2).allSatisfy { $0 == 429 }, "\(statuses)")
            #expect(try await t.get("/rps/timePermit/\(owner.mpinId)").status == 429)  // without the proof, as before
            let login = try await owner.login(t, holder: holder)
            #expect(login.status == 200, "\(login.status) \(login.text)")
            let wrong = try await t.get("/rps/timePermit/\(owner.mpinId)", headers: [("X-ZKPin-Holder", String(repeating: "0", count: 64))])
            #expect(wrong.status == 429)
        }
    }
}
