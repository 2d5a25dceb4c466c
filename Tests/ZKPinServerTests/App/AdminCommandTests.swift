import Foundation
import Testing
import ZKPinTestSupport
import ZKPinWire

@testable import ZKPinServer

/// `zkpin-server admin users|revoke|unblock|audit`, run as the real executable against a data
/// folder (or a PostgreSQL database) that an in-process relying party filled.
@Suite struct AdminCommandTests {
    typealias Run = ProcessRun

    /// The JSON document of a `--json` run (stdout must be exactly one).
    static func json(_ run: Run) throws -> [[String: Any]] {
        #expect(run.status == 0, "\(run.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]], "\(run.out)")
    }

    static func admin(_ arguments: [String]) async throws -> Run {
        try await ProcessRun.runOffPool(ServerProcess.binary, ["admin"] + arguments)
    }

    @Test func usersRevokeAndAudit() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            #expect(try await user.login(t).status == 200)

            // A table for people: columns aligned under the header, the mpinId shown by the start
            // of its salt (its own start is the same for everyone), no line wider than 160 columns.
            let users = try await Self.admin(["users", "--data", h.dir])
            #expect(users.status == 0)
            let lines = users.out.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(users.out)")
            #expect(!users.out.contains("\t"), "\(users.out)")
            #expect(lines[0].range(of: #"^USER +STATE +FAILED +DEVICE +CREATED +LAST LOGIN +MPIN ID$"#, options: .regularExpression) != nil)
            #expect(lines[1].range(of: #"^kim@example.com +active +0 +laptop +\d{4}-"#, options: .regularExpression) != nil, "\(users.out)")
            for column in ["STATE", "DEVICE", "MPIN ID"] {
                let at = try #require(lines[0].range(of: column)).lowerBound.utf16Offset(in: lines[0])
                #expect(lines[1].count > at && lines[1][lines[1].index(lines[1].startIndex, offsetBy: at - 1)] == " ", "\(column) column")
            }
            let shown = try #require(lines[1].split(separator: " ").last.map(String.init))
            #expect(shown.hasSuffix("…") && MPinIdentity(mpinId: user.mpinId)?.salt.hasPrefix(shown.dropLast()) == true, "\(shown)")
            #expect(lines.allSatisfy { $0.count <= 160 }, "\(users.out)")

            // The data folder from the server's config file (--config), as serve reads it.
            let config = h.dir + "/admin.json"
            try #"{"data": "\#(h.dir)"}"#.write(toFile: config, atomically: true, encoding: .utf8)
            let fromConfig = try await Self.admin(["users", "--config", config])
            #expect(fromConfig.status == 0, "\(fromConfig.err)")
            #expect(fromConfig.out == users.out)

            let revoke = try await Self.admin(["revoke", "kim@example.com", "--data", h.dir])
            #expect(revoke.status == 0 && revoke.out.contains("revoked 1 identity of kim@example.com"))
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.state == .revoked)
            // The running relying party refuses the revoked identity at once.
            let refused = try await user.pass12(t)
            #expect(refused.status == 403 && refused.error?.code == .identityNotAuthorized)
            #expect(
                try await Self.admin(["users", "--data", h.dir]).out.range(of: #"kim@example.com +revoked"#, options: .regularExpression) != nil)

            // Nobody to revoke: exit status 1.
            let none = try await Self.admin(["revoke", "nobody@example.com", "--data", h.dir])
            #expect(none.status == 1 && none.out.contains("revoked 0 identities"))

            let audit = try await Self.admin(["audit", "--data", h.dir])
            #expect(audit.status == 0)
            #expect(audit.out.hasPrefix("TIME\tKIND\tUSER\tADDRESS\tDETAIL\n"))
            let kinds = audit.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
                .filter { $0.count >= 3 }.map { ($0[1], $0[2]) }
            #expect(kinds.contains { $0 == ("register", "kim@example.com") })
            #expect(kinds.contains { $0 == ("login", "kim@example.com") })
            #expect(kinds.contains { $0 == ("revoke", "kim@example.com") })
        }
    }

    /// Three wrong PINs block; `admin unblock` lets the same token and PIN in again, audited.
    func unblockAfterWrongPINs(database: String? = nil) async throws {
        let h = try await Harness.make(configure: {
            $0.database = database; $0.notifyUser = true
        })
        let storage = ["--data", h.dir] + (database.map { ["--database", $0] } ?? [])
        try await h.run { t in
            // Addresses are stored normalised (lower case); the admin commands take any case.
            let user = try await TestUser.register(t, email: "lee@example.com", pin: 1357, outbox: h.outbox)
            for _ in 0..<3 { #expect(try await user.login(t, pin: 9999).status != 200) }
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.state == .blocked)
            #expect(try await user.login(t).status != 200)
            // --notify-user on: one mail tells the person (sent in the background; bounded wait).
            var notices: [String] = []
            for _ in 0..<200 where notices.isEmpty {
                notices = try FileManager.default.contentsOfDirectory(atPath: h.outbox).filter { $0.hasSuffix(".eml") }
                    .map { try String(contentsOfFile: h.outbox + "/" + $0, encoding: .utf8) }
                    .filter { $0.contains("Subject: Your ZKPin sign-in was blocked") }
                if notices.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(
                notices.count == 1 && notices.first?.contains("To: lee@example.com") == true
                    && notices.first?.contains("after 3 wrong PINs") == true && notices.first?.contains("device: laptop") == true)
            // It says what the operator can do (unblock), not only "register again".
            #expect(notices.first?.contains("until the administrator of") == true, "\(notices)")
            #expect(
                try await Self.admin(["users", "--user", "LEE@example.com"] + storage).out
                    .range(of: #"lee@example.com +blocked +3 "#, options: .regularExpression) != nil)

            let unblock = try await Self.admin(["unblock", "lee@EXAMPLE.com"] + storage)
            #expect(unblock.status == 0 && unblock.out.contains("unblocked 1 identity of lee@EXAMPLE.com"), "\(unblock)")
            let identity = try await h.rp.store.identity(mpinId: user.mpinId)
            #expect(identity?.state == .active && identity?.failedAttempts == 0)
            #expect(try await user.login(t).status == 200)

            // Nothing blocked: exit status 1 and a hint.
            let again = try await Self.admin(["unblock", "lee@example.com"] + storage)
            #expect(again.status == 1 && again.out.contains("none was blocked"))
            let audit = try Self.json(try await Self.admin(["audit", "--json", "--user", "LEE@example.com"] + storage))
            #expect(audit.filter { $0["kind"] as? String == "unblock" }.count == 2)
            #expect(audit.contains { $0["kind"] as? String == "block" || $0["kind"] as? String == "wrong_pin" })
        }
    }

    @Test func unblockOnSQLite() async throws {
        try await unblockAfterWrongPINs()
    }

    @Test(.enabled(if: TestPostgres.isConfigured, TestPostgres.skipReason)) func unblockOnPostgreSQL() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await unblockAfterWrongPINs(database: url)
    }

    @Test func revokeOneDevice() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let phone = try await TestUser.register(t, email: "max@example.com", pin: 1111, outbox: h.outbox, device: "phone")
            let laptop = try await TestUser.register(t, email: "max@example.com", pin: 2222, outbox: h.outbox, device: "laptop")

            // An --mpin-id that fits both: said in one line with where help is, not the whole usage.
            let ambiguous = try await Self.admin(["revoke", "max@example.com", "--mpin-id", String(phone.mpinId.prefix(8)), "--data", h.dir])
            #expect(ambiguous.status == 64 && ambiguous.err.contains("fits 2 identities of max@example.com"), "\(ambiguous)")
            #expect(!ambiguous.err.contains("Usage:") && ambiguous.err.contains("See 'zkpin-server admin revoke --help'."), "\(ambiguous)")

            let byDevice = try await Self.admin(["revoke", "max@example.com", "--device", "phone", "--notify-user", "--data", h.dir])
            #expect(byDevice.status == 0 && byDevice.out.contains("revoked 1 identity of max@example.com (device phone)"))
            // --notify-user: a mail through the server's mail settings (here the data folder's outbox).
            #expect(byDevice.out.contains("mailed max@example.com"), "\(byDevice)")
            let notices = try FileManager.default.contentsOfDirectory(atPath: h.outbox).filter { $0.hasSuffix(".eml") }
                .map { try String(contentsOfFile: h.outbox + "/" + $0, encoding: .utf8) }
                .filter { $0.contains("Subject: Your ZKPin sign-in was revoked") }
            #expect(notices.count == 1)
            #expect(
                notices.first.map { $0.contains("To: max@example.com") && $0.contains("device: phone") && !$0.contains("device: laptop") } == true)
            #expect(try await phone.login(t).status != 200)
            #expect(try await laptop.login(t).status == 200)
            #expect(try await Self.admin(["revoke", "max@example.com", "--device", "tablet", "--data", h.dir]).status == 1)

            // The MPIN ID column of `admin users`, copied as it is, names one identity for --mpin-id
            // (every mpinId starts alike and a plain one ends with the e-mail; the salt differs).
            let table = try await Self.admin(["users", "--user", "max@example.com", "--data", h.dir]).out
            let row = try #require(table.split(separator: "\n").first { $0.contains(" laptop ") })
            let shown = try #require(row.split(separator: " ").last.map(String.init))
            let salt = { (user: TestUser) in MPinIdentity(mpinId: user.mpinId)?.salt ?? "" }
            #expect(shown.hasSuffix("…") && salt(laptop).hasPrefix(shown.dropLast()) && !salt(phone).hasPrefix(shown.dropLast()), "\(table)")
            let byId = try await Self.admin(["revoke", "max@example.com", "--mpin-id", shown, "--data", h.dir])
            #expect(byId.status == 0 && byId.out.contains("revoked 1 identity of max@example.com (mpinId \(shown))"), "\(byId)")
            #expect(try await laptop.login(t).status != 200)
            let rows = try Self.json(try await Self.admin(["users", "--json", "--data", h.dir]))
            #expect(Set(rows.map { "\($0["device"]!):\($0["state"]!)" }) == ["phone:revoked", "laptop:revoked"])
            let audit = try Self.json(try await Self.admin(["audit", "--json", "--data", h.dir]))
            #expect(audit.contains { $0["kind"] as? String == "revoke" && ($0["detail"] as? String)?.contains("device=phone") == true })
            #expect(audit.contains { $0["kind"] as? String == "revoke" && $0["mpinId"] as? String == laptop.mpinId })
        }
    }

    @Test func jsonAndFilters() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let kim = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            _ = try await TestUser.register(t, email: "ann@example.com", pin: 1357, outbox: h.outbox)
            #expect(try await kim.login(t).status == 200)

            let all = try Self.json(try await Self.admin(["users", "--json", "--data", h.dir]))
            #expect(all.count == 2)
            let row = try #require(all.first { $0["userId"] as? String == "kim@example.com" })
            #expect(row["state"] as? String == "active" && row["failedAttempts"] as? Int == 0 && row["mpinId"] as? String == kim.mpinId)
            #expect(row["lastLogin"] is String && row["created"] is String && row["device"] as? String == "laptop")
            #expect(all.first { $0["userId"] as? String == "ann@example.com" }?["lastLogin"] is NSNull)

            let kimOnly = try Self.json(try await Self.admin(["users", "--json", "--user", "KIM@example.com", "--data", h.dir]))
            #expect(kimOnly.map { $0["userId"] as? String } == ["kim@example.com"])
            // Registered just now: inside the last hour, not since tomorrow.
            #expect(try Self.json(try await Self.admin(["users", "--json", "--since", "1h", "--data", h.dir])).count == 2)
            let tomorrow = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86400))
            #expect(try Self.json(try await Self.admin(["users", "--json", "--since", tomorrow, "--data", h.dir])).isEmpty)
            #expect(try Self.json(try await Self.admin(["audit", "--json", "--since", tomorrow, "--data", h.dir])).isEmpty)

            let audit = try Self.json(
                try await Self.admin(["audit", "--json", "--user", "ann@example.com", "--since", "2020-01-01", "--data", h.dir]))
            #expect(!audit.isEmpty && audit.allSatisfy { $0["userId"] as? String == "ann@example.com" })
            #expect(audit.allSatisfy { Set($0.keys) == ["id", "time", "kind", "userId", "mpinId", "address", "detail"] })
            // Text mode: the header, then only the filtered rows.
            let text = try await Self.admin(["audit", "--user", "ann@example.com", "--data", h.dir]).out.split(separator: "\n")
            #expect(text.first == "TIME\tKIND\tUSER\tADDRESS\tDETAIL" && text.count == audit.count + 1)

            // A time that is neither a date nor a duration is a usage error.
            let bad = try await Self.admin(["audit", "--since", "yesterday", "--data", h.dir])
            #expect(bad.status == 64 && bad.err.contains("since"))
            #expect(try await Self.admin(["users", "--since", "5x", "--data", h.dir]).status == 64)
        }
    }

    @Test func missingDataFolderIsRefused() async throws {
        let dir = try TempDir.make() + "/absent"
        for args in [
            ["users", "--data", dir], ["audit", "--data", dir], ["revoke", "x@example.com", "--data", dir],
            ["unblock", "x@example.com", "--data", dir]
        ] {
            let run = try await Self.admin(args)
            #expect(run.status != 0, "\(args)")
            #expect(run.err.contains("no database"), "\(args)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/zkpin.sqlite"))
        }
    }
}
