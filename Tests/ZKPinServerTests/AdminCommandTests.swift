import Foundation
import Testing
@testable import ZKPinServer
import ZKPinWire

/// `zkpin-server admin users|revoke EMAIL|audit --data DIR`, run as the real executable
/// against a data folder that an in-process relying party filled.
@Suite struct AdminCommandTests {
    struct Run { var status: Int32; var out: String; var err: String }

    static func admin(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = ServerProcess.binary
        process.arguments = ["admin"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                   err: String(decoding: errData, as: UTF8.self))
    }

    @Test func usersRevokeAndAudit() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "kim@example.com", pin: 2468, outbox: h.outbox)
            #expect(try await user.login(t).status == 200)

            let users = try Self.admin(["users", "--data", h.dir])
            #expect(users.status == 0)
            #expect(users.out.contains("kim@example.com\tactive\tfailed=0"))

            let revoke = try Self.admin(["revoke", "kim@example.com", "--data", h.dir])
            #expect(revoke.status == 0 && revoke.out.contains("revoked 1 identities of kim@example.com"))
            #expect(try await h.rp.store.identity(mpinId: user.mpinId)?.state == .revoked)
            // The running relying party refuses the revoked identity at once.
            let refused = try await user.pass12(t)
            #expect(refused.status == 403 && refused.error?.code == .identityNotAuthorized)
            #expect(try Self.admin(["users", "--data", h.dir]).out.contains("kim@example.com\trevoked"))

            // Nobody to revoke: exit status 1.
            let none = try Self.admin(["revoke", "nobody@example.com", "--data", h.dir])
            #expect(none.status == 1 && none.out.contains("revoked 0 identities"))

            let audit = try Self.admin(["audit", "--data", h.dir])
            #expect(audit.status == 0)
            let kinds = audit.out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
                .filter { $0.count >= 3 }.map { ($0[1], $0[2]) }
            #expect(kinds.contains { $0 == ("register", "kim@example.com") })
            #expect(kinds.contains { $0 == ("login", "kim@example.com") })
            #expect(kinds.contains { $0 == ("revoke", "kim@example.com") })
        }
    }

    @Test func missingDataFolderIsRefused() throws {
        let dir = try TempDir.make() + "/absent"
        for args in [["users", "--data", dir], ["audit", "--data", dir], ["revoke", "x@example.com", "--data", dir]] {
            let run = try Self.admin(args)
            #expect(run.status != 0, "\(args)")
            #expect(run.err.contains("no database"), "\(args)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/zkpin.sqlite"))
        }
    }
}
