import Foundation
import ZKPinProtocol

/// One test vector: its name and its fields in file order (values as written, without commas).
public struct TestVector: Sendable, Equatable {
    public var name: String
    public var fields: [(key: String, value: String)]
    /// The `#` line above a block, if any (the cross-check file names its source vector there).
    public var header: String?

    public init(name: String, fields: [(key: String, value: String)], header: String? = nil) {
        self.name = name; self.fields = fields; self.header = header
    }

    public subscript(key: String) -> String? { fields.first { $0.key == key }?.value }

    public static func == (a: TestVector, b: TestVector) -> Bool {
        a.name == b.name && a.header == b.header && a.fields.map(\.key) == b.fields.map(\.key)
            && a.fields.map(\.value) == b.fields.map(\.value)
    }
}

/// Why a vector file could not be used (exit code 2 of `zkpin vectors check`).
public enum VectorFileError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case unrecognised(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read the file: \(reason)"
        case let .unrecognised(path, reason): return "\(path): not an M-Pin vector file: \(reason)"
        }
    }
}

/// Reads the `.txt` (`KEY = value,` blocks) and `.json` (array of objects) formats of spec
/// section 5.
public enum VectorFile {
    /// The keys a JSON object's fields are listed in, so "the first field that differs" follows
    /// the same order as in the text files; other keys follow alphabetically.
    static let canonicalOrder = [
        "TEST", "CURVE", "MS1", "MS2", "SS1", "SS2", "SERVER_SECRET", "SS", "MPIN_ID_HEX", "MPINId",
        "HASH_MPIN_ID_HEX", "DATE", "PERMIT_DATE", "PIN1", "PIN2", "CS1", "CS2", "CLIENT_SECRET", "CS", "TP1", "TP2",
        "TIME_PERMIT", "TOKEN", "X", "U", "UT", "SEC", "TimeValue", "Y", "V", "HID", "HTID",
        "SERVER_OUTPUT", "SERVER_2", "AuthResult", "E", "F", "KANGAROO", "PRECOMPUTE_G1", "PRECOMPUTE_G2",
        "R", "Z", "W", "T", "HASH_ALL", "CLIENT_KEY", "SERVER_KEY", "EXPECT"
    ]

    public static func load(path: String) throws(VectorFileError) -> [TestVector] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unrecognised(path: path, reason: "not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let vectors = trimmed.hasPrefix("[") ? try parseJSON(data, path: path) : try parseText(text, path: path)
        guard !vectors.isEmpty else { throw .unrecognised(path: path, reason: "no vectors found") }
        return vectors
    }

    /// `KEY = value,` lines; blank lines separate vectors; `#` lines are comments (the one
    /// directly above a block is its header and name).
    public static func parseText(_ text: String, path: String) throws(VectorFileError) -> [TestVector] {
        var vectors = [TestVector]()
        var fields = [(key: String, value: String)]()
        var header: String? = nil
        func finish() {
            guard !fields.isEmpty else { return }
            let index = vectors.count
            let name: String
            if let test = fields.first(where: { $0.key == "TEST" })?.value {
                name = "TEST \(test)"
            } else if let header {
                name = header
            } else {
                name = "vector \(index)"
            }
            vectors.append(TestVector(name: name, fields: fields, header: header))
            fields = []
            header = nil
        }
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { finish(); continue }
            if line.hasPrefix("#") {
                if !fields.isEmpty { finish() }
                header = line.dropFirst().trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw .unrecognised(path: path, reason: "line \(number + 1) is not `KEY = value`: \(line.prefix(60))")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(",") { value.removeLast() }
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw .unrecognised(path: path, reason: "line \(number + 1) has no valid key: \(line.prefix(60))")
            }
            fields.append((key, value.trimmingCharacters(in: .whitespaces)))
        }
        finish()
        return vectors
    }

    /// An array of objects whose values are strings or integers.
    public static func parseJSON(_ data: Data, path: String) throws(VectorFileError) -> [TestVector] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw .unrecognised(path: path, reason: "invalid JSON: \((error as NSError).localizedDescription)")
        }
        guard let array = object as? [[String: Any]] else {
            throw .unrecognised(path: path, reason: "expected a JSON array of objects")
        }
        var vectors = [TestVector]()
        for (index, entry) in array.enumerated() {
            var fields = [(key: String, value: String)]()
            // A DVS object's fields follow the DVS order (its keys overlap the others' little).
            let order = entry["PA"] != nil || entry["VERIFY_PA"] != nil ? VectorChecker.dvsOrder : canonicalOrder
            let keys = entry.keys.sorted { a, b in
                let ia = order.firstIndex(of: a) ?? Int.max, ib = order.firstIndex(of: b) ?? Int.max
                return ia != ib ? ia < ib : a < b
            }
            for key in keys {
                switch entry[key] {
                case let string as String: fields.append((key, string))
                case let number as NSNumber: fields.append((key, number.stringValue))
                // null is a value (the DVS files' PIN_ERROR when there is none), written as in JSON.
                case is NSNull: fields.append((key, "null"))
                default: continue  // nested values belong to keys the checker ignores
                }
            }
            let name = fields.first(where: { $0.key == "TEST" }).map { "TEST \($0.value)" } ?? "vector \(index)"
            vectors.append(TestVector(name: name, fields: fields))
        }
        return vectors
    }
}
