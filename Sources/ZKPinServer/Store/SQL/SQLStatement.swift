import Foundation

/// A value bound to a statement, or read back from a row: the few types the store keeps.
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int)
    case text(String)
    case bytes([UInt8])
    case bool(Bool)
}

/// A value that can be bound to a statement.
public protocol SQLBindable { var sqlValue: SQLValue { get } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .int(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .bool(self) } }
extension Array: SQLBindable where Element == UInt8 { public var sqlValue: SQLValue { .bytes(self) } }
extension Optional: SQLBindable where Wrapped: SQLBindable { public var sqlValue: SQLValue { self?.sqlValue ?? .null } }

/// One SQL statement, written once for both dialects: every interpolated value becomes a `?`
/// placeholder with its value bound (never spliced into the text); `raw:` splices program
/// constants (table names, a dialect's fragment). The PostgreSQL driver numbers the
/// placeholders ($1, $2, ...), so the text itself never contains a `?` of its own.
public struct SQLStatement: Sendable, Equatable, ExpressibleByStringInterpolation {
    public var text: String
    public var values: [SQLValue]

    public init(text: String, values: [SQLValue] = []) { self.text = text; self.values = values }
    public init(stringLiteral value: String) { self.init(text: value) }
    public init(stringInterpolation: Interpolation) { self.init(text: stringInterpolation.text, values: stringInterpolation.values) }

    public struct Interpolation: StringInterpolationProtocol {
        var text = ""
        var values: [SQLValue] = []
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + interpolationCount) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            text += "?"
            values.append(value.sqlValue)
        }
        /// A program constant spliced into the text (never a value that came from a request).
        public mutating func appendInterpolation(raw: String) { text += raw }
        /// `?, ?, ?` for each value: an IN list.
        public mutating func appendInterpolation(list: [some SQLBindable]) {
            text += list.map { _ in "?" }.joined(separator: ", ")
            values += list.map(\.sqlValue)
        }
    }
}

/// One row of a result, by column name.
public struct SQLRow: Sendable {
    public var columns: [String: SQLValue]
    public init(_ columns: [String: SQLValue]) { self.columns = columns }

    /// A column missing, or of another type than the store wrote: the schema and the code disagree.
    public struct Mismatch: Error, CustomStringConvertible {
        public var column: String
        public var found: SQLValue?
        public var description: String { "the database column \(column) holds \(found.map { "\($0)" } ?? "nothing"), not what the store expects" }
    }

    func value(_ column: String) throws -> SQLValue {
        guard let value = columns[column] else { throw Mismatch(column: column, found: nil) }
        return value
    }

    public func int(_ column: String) throws -> Int {
        guard let value = try optionalInt(column) else { throw Mismatch(column: column, found: .null) }
        return value
    }
    public func optionalInt(_ column: String) throws -> Int? {
        switch try value(column) {
        case .null: return nil
        case .int(let v): return v
        case .bool(let v): return v ? 1 : 0
        case let other: throw Mismatch(column: column, found: other)
        }
    }
    public func text(_ column: String) throws -> String {
        guard let value = try optionalText(column) else { throw Mismatch(column: column, found: .null) }
        return value
    }
    public func optionalText(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let v): return v
        case let other: throw Mismatch(column: column, found: other)
        }
    }
    public func bytes(_ column: String) throws -> [UInt8] {
        guard let value = try optionalBytes(column) else { throw Mismatch(column: column, found: .null) }
        return value
    }
    public func optionalBytes(_ column: String) throws -> [UInt8]? {
        switch try value(column) {
        case .null: return nil
        case .bytes(let v): return v
        case let other: throw Mismatch(column: column, found: other)
        }
    }
    /// SQLite keeps booleans as 0 and 1, PostgreSQL as BOOLEAN: both read as Bool.
    public func bool(_ column: String) throws -> Bool {
        switch try value(column) {
        case .bool(let v): return v
        case .int(let v): return v != 0
        case let other: throw Mismatch(column: column, found: other)
        }
    }
}
