import ArgumentParser
import Foundation
import ZKPinServer
import ZKPinWire

/// `--json`: the listing as one JSON document (an array of objects) on standard output.
struct AdminOutput: ParsableArguments {
    @Flag(help: "Print one JSON document (an array) instead of the listing for people.") var json = false

    func printJSON<Value: Encodable>(_ value: Value) throws { try Self.printDocument(value) }

    static func printDocument<Value: Encodable>(_ value: Value) throws {
        FileHandle.standardOutput.write(try AdminRows.json(value) + Data("\n".utf8))
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
    static func text(_ unix: Int) -> String { AdminRows.time(unix) }
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

    /// The part of an mpinId that tells it apart, for `admin users` and `--mpin-id`: the start
    /// of its salt (16 random bytes in its JSON), followed by "…". Every mpinId starts with the
    /// same hex of `{"issued`, and a plain one ends with the e-mail address; the salt differs.
    static func shortened(_ mpinId: String, keep: Int = 12) -> String {
        guard let salt = MPinSalt.of(mpinId) else { return mpinId.count > keep + 1 ? String(mpinId.prefix(keep)) + "…" : mpinId }
        return String(salt.prefix(keep)) + "…"
    }
}

/// Words of the admin commands' results.
enum AdminText {
    /// "1 identity", "2 identities", "0 identities".
    static func identities(_ n: Int) -> String { n == 1 ? "1 identity" : "\(n) identities" }
}

/// The salt of an mpinId: hex of the JSON of `MPinIdentity`, followed by the DVS key for a
/// signing-capable identity, so the JSON is the shortest prefix that decodes.
enum MPinSalt {
    static func of(_ mpinId: String) -> String? {
        guard let bytes = Hex.decode(mpinId) else { return nil }
        for end in bytes.indices where bytes[end] == UInt8(ascii: "}") {
            if let identity = try? JSONDecoder().decode(MPinIdentity.self, from: Data(bytes[...end])) { return identity.salt.lowercased() }
        }
        return nil
    }
}
