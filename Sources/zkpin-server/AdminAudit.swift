import ArgumentParser
import Foundation
import ZKPinServer

extension Admin {
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the audit log, oldest first: one line each under a header, --json, or --json-lines (an export).")
        @OptionGroup var storage: AdminStorage
        @OptionGroup var output: AdminOutput
        @Option(help: "At most this many rows, the newest.") var limit = 100
        @Option(help: ArgumentHelp("Only rows about this person (any case).", valueName: "EMAIL")) var user: String?
        @Option(
            help: ArgumentHelp(
                "Only rows since then: 2026-11-25, 2026-11-25T08:00:00Z, or ago: 30m, 24h, 7d.",
                valueName: "DATE|DURATION"))
        var since: AdminTime?
        @Option(help: ArgumentHelp("Only rows before then (as --since).", valueName: "DATE|DURATION")) var until: AdminTime?
        @Option(
            parsing: .singleValue,
            help: ArgumentHelp("Only rows of this kind (login, wrong_pin, revoke...); repeat it, or separate with commas.", valueName: "KIND"))
        var kind: [String] = []
        @Option(help: ArgumentHelp("Only rows older than this row id: the next page back (ids are in --json).", valueName: "ID"))
        var before: Int?
        @Flag(name: .customLong("json-lines"), help: "Print one JSON object per line (an export for log tools).") var jsonLines = false

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
            if let since, let until, until.unix <= since.unix { throw ValidationError("--until must be after --since") }
            if output.json && jsonLines { throw ValidationError("--json and --json-lines: choose one") }
        }

        func run() async throws {
            let store = try await storage.open()
            let kinds = kind.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
            let query = AuditQuery(userId: user, kinds: kinds, since: since?.unix, until: until?.unix, before: before, limit: limit)
            let rows = try await store.numberedAuditLog(query)
            if output.json { return try output.printJSON(rows.map { AdminRows.AuditRow($0) }) }
            if jsonLines { return FileHandle.standardOutput.write(try AdminRows.jsonLines(rows.map { AdminRows.AuditRow($0) })) }
            print(["TIME", "KIND", "USER", "ADDRESS", "DETAIL"].joined(separator: "\t"))
            for e in rows.map(\.event) {
                print([AdminTime.text(e.time), e.kind, e.userId ?? "-", e.address ?? "-", e.detail].joined(separator: "\t"))
            }
        }
    }
}
