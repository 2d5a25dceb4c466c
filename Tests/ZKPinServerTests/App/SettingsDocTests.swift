import Foundation
import Testing

@testable import ZKPinServer

/// The operator's guide says what the settings table says: docs/operator.md's settings table is
/// `ServeSettings.markdownTable`, and where the docs give a setting's default or range in
/// passing ("90 s (`--otp-ttl`, 15 to 600)"), they are the table's.
/// `ZKPIN_UPDATE_DOCS=1 swift test --skip-build --filter SettingsDocTests` writes the table into
/// docs/operator.md.
@Suite struct SettingsDocTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs")
    static let tableHeader = "| key | default | values | what it sets |"

    static func read(_ name: String) throws -> String {
        try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
    }

    /// The lines of the doc's table: from its header to the first line that is not a row.
    static func table(in text: String) -> Range<String.Index>? {
        guard let start = text.range(of: tableHeader)?.lowerBound else { return nil }
        var end = start
        for line in text[start...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else { break }
            end = line.endIndex
        }
        return start..<end
    }

    @Test func theOperatorsGuideHasTheSettingsTable() throws {
        let path = Self.docs.appendingPathComponent("operator.md")
        var text = try Self.read("operator.md")
        let range = try #require(Self.table(in: text), "docs/operator.md has no line \(Self.tableHeader)")
        let documented = String(text[range])
        let code = ServeSettings.markdownTable
        if documented == code { return }
        if ProcessInfo.processInfo.environment["ZKPIN_UPDATE_DOCS"] == "1" {
            text.replaceSubrange(range, with: code)
            try text.write(to: path, atomically: true, encoding: .utf8)
            print("SettingsDocTests: wrote the settings table into \(path.path)")
            return
        }
        Issue.record(
            """
            docs/operator.md's settings table differs from ServeSettings (App/Settings/ServeSettings.swift):
            \(Self.rowDifferences(documented: documented, code: code))
            Edit the table in ServeSettings.swift, then write the doc's table with
              ZKPIN_UPDATE_DOCS=1 swift test --skip-build --filter SettingsDocTests
            """)
    }

    /// Each row that differs, by its key: the doc's line (-) and the code's (+).
    static func rowDifferences(documented: String, code: String) -> String {
        func rows(_ table: String) -> [(key: String, line: String)] {
            table.split(separator: "\n").map { line in
                (String(line.split(separator: "|", omittingEmptySubsequences: true).first ?? "").trimmingCharacters(in: .whitespaces), String(line))
            }
        }
        let doc = rows(documented)
        let wanted = rows(code)
        var out: [String] = []
        for (key, line) in wanted where doc.first(where: { $0.key == key })?.line != line {
            if let old = doc.first(where: { $0.key == key }) { out.append("- " + old.line) }
            out.append("+ " + line)
        }
        for (key, line) in doc where !wanted.contains(where: { $0.key == key }) { out.append("- " + line + "   (no such setting)") }
        if out.isEmpty { out.append("(the same rows in another order)") }
        return out.joined(separator: "\n")
    }

    /// A default given in passing is a number right before the setting's name in parentheses
    /// ("600 a minute (`--pass1-per-address`", "6 digits by default (`otp-digits`"), a range
    /// is "`otp-digits`, 6 to 8".
    @Test func defaultsAndRangesInThePassingAreTheTables() throws {
        let stated = try NSRegularExpression(pattern: #"(\d[\d,]*)((?:\s+[A-Za-z-]+)*)\s+\(`(?:--)?([a-z0-9-]+)`"#)
        let ranged = try NSRegularExpression(pattern: #"`(?:--)?([a-z0-9-]+)`,\s+(\d[\d,]*)\s+to\s+(\d[\d,]*)"#)
        var checked = 0
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.docs.path).filter { $0.hasSuffix(".md") } + ["../README.md"]
        for name in names.sorted() {
            let text = try Self.read(name)
            let whole = NSRange(text.startIndex..., in: text)
            func group(_ match: NSTextCheckingResult, _ index: Int) -> String {
                String(text[Range(match.range(at: index), in: text)!]).replacingOccurrences(of: ",", with: "")
            }
            func line(_ match: NSTextCheckingResult) -> Int {
                text[..<Range(match.range, in: text)!.lowerBound].filter { $0 == "\n" }.count + 1
            }
            for match in stated.matches(in: text, range: whole) {
                guard let setting = ServeSettings.named(group(match, 3)) else { continue }
                checked += 1
                #expect(
                    group(match, 1) == setting.defaultText,
                    "docs/\(name):\(line(match)): \(setting.name)'s default is \(setting.defaultText ?? "unset")")
            }
            for match in ranged.matches(in: text, range: whole) {
                guard let setting = ServeSettings.named(group(match, 1)) else { continue }
                checked += 1
                let range = "\(group(match, 2)) to \(group(match, 3))"
                #expect(range == setting.values, "docs/\(name):\(line(match)): \(setting.name) takes \(setting.values ?? "any text")")
            }
        }
        #expect(checked >= 10, "only \(checked) defaults and ranges found in the docs")
    }
}
