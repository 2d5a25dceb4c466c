import Testing

@testable import ZKPinServer

/// What `zkpin-server admin` asks of every store: unblock, revoke one device's identity, and
/// the audit log filtered by person and time.
@Suite struct AdminStoreConformanceTests {
    /// kim has a phone and a laptop; kimberly (whose address starts the same) has a phone.
    static func identities(_ kind: StoreKind) async throws -> Store {
        let store = try await kind.make()
        for (mpinId, user, device) in [
            ("k-phone", "kim@example.com", "phone"), ("k-laptop", "kim@example.com", "laptop"),
            ("kb-phone", "kimberly@example.com", "phone")
        ] {
            try await store.insertRegistration(
                PendingRegistration(
                    mpinId: mpinId, userId: user, device: device, regOTTHash: "h-\(mpinId)",
                    codeHash: "c", created: 1000, expires: 4600, address: "127.0.0.1"))
            #expect(try await store.activate(mpinId: mpinId, now: 1000))
        }
        return store
    }

    static func block(_ store: Store, _ mpinId: String) async throws {
        for _ in 0..<3 {
            #expect(try await store.reserveAttempt(mpinId: mpinId, maxAttempts: 3, now: 2000, hold: 30) == .reserved)
            _ = try await store.settleAttempt(mpinId: mpinId, .wrongPIN(maxAttempts: 3))
        }
        #expect(try await store.identity(mpinId: mpinId)?.state == .blocked)
    }

    /// The admin page's search and the API's pages: a part of an address matched as typed (LIKE's
    /// wildcards are plain characters), people counted by state, pages without overlap.
    @Test(arguments: StoreKind.available) func peopleBySearchAndIdentitiesByPage(kind: StoreKind) async throws {
        let store = try await Self.identities(kind)
        for (mpinId, user) in [("u1", "a_b@x.example"), ("u2", "axb@x.example"), ("u3", "100%@x.example")] {
            try await store.insertRegistration(
                PendingRegistration(
                    mpinId: mpinId, userId: user, device: "phone", regOTTHash: "h-\(mpinId)", codeHash: "c", created: 1000,
                    expires: 4600, address: "127.0.0.1"))
            #expect(try await store.activate(mpinId: mpinId, now: 1000))
        }
        try await Self.block(store, "k-phone")
        #expect(try await store.people(containing: "_", limit: 10).map(\.userId) == ["a_b@x.example"])
        #expect(try await store.people(containing: "%", limit: 10).map(\.userId) == ["100%@x.example"])
        #expect(try await store.people(containing: "X.EXAMPLE", limit: 2).map(\.userId) == ["100%@x.example", "a_b@x.example"])
        let kim = try await store.people(containing: "kim@", limit: 10)
        #expect(kim.count == 1 && kim[0].userId == "kim@example.com" && kim[0].states == ["active": 1, "blocked": 1], "\(kim)")
        #expect(try await store.people(containing: "nobody", limit: 10).isEmpty)

        let all = try await store.identities().map(\.mpinId)
        var paged: [String] = []
        for offset in stride(from: 0, to: all.count + 2, by: 2) {
            paged += try await store.identities(userId: nil, limit: 2, offset: offset).map(\.mpinId)
        }
        #expect(paged == all && all.count == 6)
        #expect(try await store.identities(userId: "KIM@example.com", limit: 10, offset: 1).count == 1)
    }

    @Test(arguments: StoreKind.available) func unblockRestoresABlockedIdentityOnly(kind: StoreKind) async throws {
        let store = try await Self.identities(kind)
        try await Self.block(store, "k-phone")
        try await Self.block(store, "kb-phone")
        #expect(try await store.revoke(IdentitySelection(userId: "kim@example.com", device: "laptop")) == 1)

        // The address in another case; the revoked laptop stays revoked, kimberly stays blocked.
        #expect(try await store.unblock(IdentitySelection(userId: "KIM@example.com")) == 1)
        let phone = try await store.identity(mpinId: "k-phone")
        #expect(phone?.state == .active && phone?.failedAttempts == 0)
        #expect(try await store.identity(mpinId: "k-laptop")?.state == .revoked)
        #expect(try await store.identity(mpinId: "kb-phone")?.state == .blocked)
        // Nothing blocked left: nothing changes.
        #expect(try await store.unblock(IdentitySelection(userId: "kim@example.com")) == 0)
        // The unblocked identity can log in again (a full set of attempts).
        #expect(try await store.reserveAttempt(mpinId: "k-phone", maxAttempts: 3, now: 3000, hold: 30) == .reserved)
        // One device's, or one mpinId's, unblock leaves the others.
        #expect(try await store.unblock(IdentitySelection(userId: "kimberly@example.com", device: "laptop")) == 0)
        #expect(try await store.unblock(IdentitySelection(userId: "kimberly@example.com", mpinId: "k-phone")) == 0)
        #expect(try await store.unblock(IdentitySelection(userId: "kimberly@example.com", mpinId: "kb-phone")) == 1)
    }

    @Test(arguments: StoreKind.available) func revokeOneDevice(kind: StoreKind) async throws {
        let store = try await Self.identities(kind)
        #expect(try await store.revoke(IdentitySelection(userId: "Kim@Example.com", device: "phone")) == 1)
        #expect(try await store.identity(mpinId: "k-phone")?.state == .revoked)
        #expect(try await store.identity(mpinId: "k-laptop")?.state == .active)
        #expect(try await store.identity(mpinId: "kb-phone")?.state == .active)
        // Already revoked, an unknown device, another person's mpinId: nothing changes.
        #expect(try await store.revoke(IdentitySelection(userId: "kim@example.com", device: "phone")) == 0)
        #expect(try await store.revoke(IdentitySelection(userId: "kim@example.com", device: "tablet")) == 0)
        #expect(try await store.revoke(IdentitySelection(userId: "kim@example.com", mpinId: "kb-phone")) == 0)
        #expect(try await store.revoke(IdentitySelection(userId: "kim@example.com", mpinId: "k-laptop")) == 1)
        #expect(try await store.identity(mpinId: "kb-phone")?.state == .active)
        // Every device.
        #expect(try await store.revoke(IdentitySelection(userId: "kimberly@example.com")) == 1)
    }

    @Test(arguments: StoreKind.available) func auditFilteredByPersonAndTime(kind: StoreKind) async throws {
        let store = try await kind.make()
        try await store.appendAudit(AuditEvent(time: 100, kind: "register", userId: "kim@example.com"))
        try await store.appendAudit(AuditEvent(time: 200, kind: "login", userId: "Kim@Example.com", address: "::1"))
        try await store.appendAudit(AuditEvent(time: 300, kind: "oidc_client_remove", detail: "c1"))
        try await store.appendAudit(AuditEvent(time: 400, kind: "login", userId: "kimberly@example.com"))
        try await store.appendAudit(AuditEvent(time: 500, kind: "block", userId: "kim@example.com"))

        #expect(try await store.auditLog(AuditQuery()).map(\.time) == [100, 200, 300, 400, 500])
        #expect(try await store.auditLog(AuditQuery(userId: "KIM@example.com")).map(\.time) == [100, 200, 500])
        #expect(try await store.auditLog(AuditQuery(since: 300)).map(\.time) == [300, 400, 500])
        #expect(try await store.auditLog(AuditQuery(userId: "kim@example.com", since: 150)).map(\.kind) == ["login", "block"])
        // The limit keeps the newest matching rows, oldest first.
        #expect(try await store.auditLog(AuditQuery(userId: "kim@example.com", limit: 2)).map(\.time) == [200, 500])
        #expect(try await store.auditLog(AuditQuery(userId: "nobody@example.com")).isEmpty)
        #expect(try await store.auditLog(AuditQuery(since: 501)).isEmpty)
    }
}
