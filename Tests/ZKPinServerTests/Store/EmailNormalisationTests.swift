import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Finding 7 of issue 16: e-mail addresses come in one form (NFC, lower case), invisible,
/// bidi and line-separator characters are refused, and rows stored before are migrated.
@Suite struct EmailNormalisationTests {
    /// "Zoë" with the diaeresis as a combining character (NFD), in mixed case.
    static let decomposed = "Zoe\u{0308}.Smith@Example.COM"
    static let folded = "zo\u{00EB}.smith@example.com"

    @Test func addressesAreFoldedOnceAtTheEdge() async throws {
        #expect(EmailAddress.normalized(Self.decomposed) == Self.folded)
        #expect(EmailAddress.normalized("Ann@Example.com") == "ann@example.com")
        for bad in [
            "a\u{200B}b@example.com", "ann@exa\u{202E}mple.com", "ann\u{2028}@example.com", "ann@example.com\u{2029}",
            "a\u{00A0}b@example.com", "ann\u{0007}@example.com", "a\u{FEFF}nn@example.com", "ann\u{200F}@example.com"
        ] {
            #expect(EmailAddress.normalized(bad) == nil, "\(bad.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // Issue 29, finding 9: look-alikes and pictures. Whole-script names stay accepted.
        for lookAlike in [
            "ann@\u{0430}pple.com",  // a Cyrillic "а" in a Latin label (homograph)
            "ann@p\u{03B1}ypal.com",  // a Greek alpha in a Latin label
            "\u{0430}nn@example.com",  // a mixed-script local part
            "ann\u{1F600}@example.com", "ann@ex\u{2764}\u{FE0F}ample.com",  // emoji
            "\u{FF41}\u{FF4E}\u{FF4E}@example.com",  // full-width "ａｎｎ"
            "\u{FB01}le@example.com",  // the "ﬁ" ligature
            "ann\u{00B2}@example.com"  // a superscript two
        ] {
            #expect(EmailAddress.normalized(lookAlike) == nil, "\(lookAlike.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for fine in [
            "ann@example.com", "o'brien+tag^x@example.com", "zo\u{00EB}@b\u{00FC}cher.de",
            "\u{0438}\u{0432}\u{0430}\u{043D}@\u{043F}\u{0440}\u{0438}\u{043C}\u{0435}\u{0440}.\u{0440}\u{0444}",
            "\u{7528}\u{6237}@\u{4F8B}\u{5B50}.cn"
        ] {
            #expect(EmailAddress.normalized(fine) != nil, "\(fine)")
        }
        let h = try await Harness.make()
        try await h.run { t in
            let homograph = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "ann@\u{0430}pple.com"))
            #expect(homograph.status == 400 && homograph.error?.message.contains("mixing Latin, Greek and Cyrillic") == true, "\(homograph.text)")
            let r = try await t.json("PUT", "/rps/user", RegisterRequest(userId: Self.decomposed))
            #expect(r.status == 200, "\(r.text)")
            let mpinId = try r.json(RegisterResponse.self).mpinId
            #expect(try await h.rp.store.registration(mpinId: mpinId)?.userId == Self.folded)
            let bidi = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "ann@exa\u{202E}mple.com"))
            #expect(bidi.status == 400 && bidi.error?.message.contains("bidi") == true, "\(bidi.text)")
        }
    }

    @Test func sqliteRowsOfAnOlderVersionAreMigrated() async throws {
        let dir = try TempDir.make()
        let path = dir + "/zkpin.sqlite"
        do {
            let old = try DatabaseQueue(path: path)
            try SQLiteMigrations.migrator(ServerSchema.changes).migrate(old, upTo: "v3")
            try await old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO identities(mpin_id, user_id, device, state, failed, reserved, reserved_until, created)
                        VALUES ('aa', ?, 'd', 'active', 0, 0, 0, 1), ('bb', 'plain@example.com', 'd', 'active', 0, 0, 0, 1)
                        """, arguments: [Self.decomposed])
                try db.execute(
                    sql: """
                        INSERT INTO registrations(mpin_id, user_id, device, reg_ott_hash, code_hash, created, expires, address)
                        VALUES ('aa', ?, 'd', 'h', 'c', 1, 99999999999, 'x')
                        """, arguments: [Self.decomposed])
            }
        }
        let store = try Store.sqlite(path: path)
        #expect(try await store.identity(mpinId: "aa")?.userId == Self.folded)
        #expect(try await store.identity(mpinId: "bb")?.userId == "plain@example.com")
        #expect(try await store.registration(mpinId: "aa")?.userId == Self.folded)
        // The administrator's spelling is folded the same way.
        #expect(try await store.revoke(userId: EmailAddress.folded("ZOË.SMITH@EXAMPLE.COM")) == 1)
    }

    @Test(.enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason))
    func postgresRowsOfAnOlderVersionAreMigrated() async throws {
        let location = try PostgresLocation(url: try await TestPostgres.freshDatabase())
        let logger = Logger(label: "test")
        let config = location.connectionConfiguration
        let old = try await PostgresConnection.connect(configuration: config, id: 1, logger: logger)
        try await PostgresMigrations.migrate(old, schema: ServerSchema.changes, logger: logger, upTo: 3)
        try await old.query(
            """
            INSERT INTO identities(mpin_id, user_id, device, state, failed, reserved, reserved_until, created)
            VALUES ('aa', \(Self.decomposed), 'd', 'active', 0, 0, 0, 1), ('bb', 'plain@example.com', 'd', 'active', 0, 0, 0, 1)
            """, logger: logger)
        try await old.close()
        let store = try await Store.postgres(location, maxConnections: 2, patience: TestPostgres.patience)
        #expect(try await store.identity(mpinId: "aa")?.userId == Self.folded)
        #expect(try await store.identity(mpinId: "bb")?.userId == "plain@example.com")
        #expect(try await store.revoke(userId: EmailAddress.folded("ZOË.SMITH@EXAMPLE.COM")) == 1)
    }
}
