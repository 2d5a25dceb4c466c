import ArgumentParser
import Foundation
import ZKPinServer

extension Admin {
    struct Users: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List identities: one line each under a header, or --json.")
        @OptionGroup var storage: AdminStorage
        @OptionGroup var output: AdminOutput
        @Option(help: ArgumentHelp("Only this person's identities (any case).", valueName: "EMAIL")) var user: String?
        @Option(
            help: ArgumentHelp(
                "Only identities created since then: 2026-11-25, 2026-11-25T08:00:00Z, or ago: 30m, 24h, 7d.",
                valueName: "DATE|DURATION"))
        var since: AdminTime?

        func run() async throws {
            let store = try await storage.open()
            let rows = try await store.identities().filter { identity in
                (user.map { identity.userId.lowercased() == $0.lowercased() } ?? true)
                    && (since.map { identity.created >= $0.unix } ?? true)
            }
            if output.json { return try output.printJSON(rows.map { AdminRows.IdentityRow($0) }) }
            // The mpinId is long (hex of a JSON document): its end names it for --mpin-id.
            let table = AdminTable(
                header: ["USER", "STATE", "FAILED", "DEVICE", "CREATED", "LAST LOGIN", "MPIN ID"],
                rows: rows.map { i in
                    [
                        i.userId, i.state.rawValue, String(i.failedAttempts), i.device.isEmpty ? "-" : i.device,
                        AdminTime.text(i.created), i.lastLogin.map(AdminTime.text) ?? "-", AdminTable.shortened(i.mpinId)
                    ]
                })
            for line in table.lines { print(line) }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a person's identities, or one device's (--device, --mpin-id); audited. Exit 1 when none changed.")
        @OptionGroup var choice: IdentityChoice
        @OptionGroup var storage: AdminStorage
        @Flag(
            name: .customLong("notify-user"),
            help: "Mail the person which devices were revoked, with the server's mail settings (--config or ZKPIN_CONFIG, and ZKPIN_* variables).")
        var notifyUser = false

        func run() async throws {
            let notice = notifyUser ? try await AdminNotifier(configFile: storage.config, dataDirectory: storage.location.folder()) : nil
            let store = try await storage.open()
            let selection = try await choice.selection(in: store)
            // The names for the mail: the identities this revoke is about to change.
            let devices = try await store.identities().filter { i in
                EmailAddress.folded(i.userId) == choice.folded && i.state != .revoked
                    && (choice.device.map { i.device == $0 } ?? true) && (selection.mpinId.map { i.mpinId == $0 } ?? true)
            }.map(\.device)
            let n = try await store.revoke(selection)
            try await store.appendAudit(
                AuditEvent(
                    time: Int(Date().timeIntervalSince1970), kind: "revoke", userId: choice.folded,
                    mpinId: selection.mpinId, detail: "admin, \(n) identities\(choice.auditDetail)"))
            print("revoked \(AdminText.identities(n)) of \(choice.described)")
            if n == 0 { throw ExitCode(1) }
            if let notice { await notice.revoked(userId: choice.folded, devices: devices) }
        }
    }

    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Make a person's identities that wrong PINs blocked active again, with a full set of attempts; audited. Exit 1 when none was blocked."
        )
        @OptionGroup var choice: IdentityChoice
        @OptionGroup var storage: AdminStorage

        func run() async throws {
            let store = try await storage.open()
            let selection = try await choice.selection(in: store)
            let n = try await store.unblock(selection)
            try await store.appendAudit(
                AuditEvent(
                    time: Int(Date().timeIntervalSince1970), kind: "unblock", userId: choice.folded,
                    mpinId: selection.mpinId, detail: "admin, \(n) identities\(choice.auditDetail)"))
            print("unblocked \(AdminText.identities(n)) of \(choice.described)" + (n == 0 ? " (none was blocked; see admin users)" : ""))
            if n == 0 { throw ExitCode(1) }
        }
    }
}
