import ArgumentParser
import Foundation

/// `--json`: the listing as one JSON document (an array of objects) on standard output.
struct AdminOutput: ParsableArguments {
    @Flag(help: "Print one JSON document (an array) instead of the listing for people.") var json = false

    func printJSON<Row: Encodable>(_ rows: [Row]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(rows) + Data("\n".utf8))
    }
}

/// A point in time on the command line: a date, a date and time (ISO 8601, UTC unless it
/// says otherwise), or a duration back from now (`90s`, `30m`, `24h`, `7d`, `2w`).
struct AdminTime: ExpressibleByArgument {
    var unix: Int

    init?(argument: String) { self.init(argument, now: Int(Date().timeIntervalSince1970)) }

    init?(_ text: String, now: Int) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400]
        if let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count >= 0 {
            unix = now - count * unit
            return
        }
        let full = ISO8601DateFormatter()
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        guard let date = full.date(from: text) ?? day.date(from: text) else { return nil }
        unix = Int(date.timeIntervalSince1970)
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// ISO 8601 in UTC, as the admin listings print times.
    static func text(_ unix: Int) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}

/// A listing for people: a header and one line per row, each column as wide as its widest
/// cell, two spaces between columns.
struct AdminTable {
    var header: [String]
    var rows: [[String]]

    var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }
            return line
        }
    }

    /// The start of a long identifier, enough to tell it apart (`--mpin-id` takes it).
    static func shortened(_ text: String, keep: Int = 16) -> String {
        text.count > keep + 1 ? String(text.prefix(keep)) + "…" : text
    }
}
