import Testing

@testable import ZKPinServer

/// `admin revoke` on every store: the e-mail address matches in any case.
@Suite struct RevocationConformanceTests {
    @Test(arguments: StoreKind.available) func revokeMatchesTheAddressInAnyCase(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.insertRegistration(pending("k1", user: "kim@example.com"))
        _ = try await store.activate(mpinId: "k1", now: 1000)
        try await store.insertRegistration(pending("k2", user: "kimberly@example.com"))
        _ = try await store.activate(mpinId: "k2", now: 1000)
        #expect(try await store.revoke(userId: "Kim@Example.COM") == 1)
        #expect(try await store.identity(mpinId: "k1")?.state == .revoked)
        #expect(try await store.identity(mpinId: "k2")?.state == .active)
    }
}
