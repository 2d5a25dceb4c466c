import ArgumentParser
import Foundation
import ZKPinServer

extension Admin {
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the audit log, oldest first: one line each under a header, or --json.")
        @OptionGroup var storage: AdminStorage
        @OptionGroup var output: AdminOutput
        @Option(help: "At most this many rows, the newest.") var limit = 100
        @Option(help: ArgumentHelp("Only rows about this person (any case).", valueName: "EMAIL")) var user: String?
        @Option(
            help: ArgumentHelp(
                "Only rows since then: 2026-11-25, 2026-11-25T08:00:00Z, or ago: 30m, 24h, 7d.",
                valueName: "DATE|DURATION"))
        var since: AdminTime?

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        }

        func run() async throws {
            let store = try await storage.open()
            let rows = try await store.auditLog(AuditQuery(userId: user, since: since?.unix, limit: limit))
            if output.json { return try output.printJSON(rows.map { AdminRows.AuditRow($0) }) }
            print(["TIME", "KIND", "USER", "ADDRESS", "DETAIL"].joined(separator: "\t"))
            for e in rows {
                print([AdminTime.text(e.time), e.kind, e.userId ?? "-", e.address ?? "-", e.detail].joined(separator: "\t"))
            }
        }
    }
}
