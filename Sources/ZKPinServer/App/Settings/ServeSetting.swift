/// One setting of `zkpin-server serve`, an entry of the table `ServeSettings`: its name (the
/// flag `--<name>` and the key in the `--config` JSON file), its type and default, the values it
/// takes, its help. Its environment variable is derived (`ZKPIN_<NAME>`, dashes as
/// underscores), and `ServeOptions` holds its value under the property name the table gives it.
public struct ServeSetting<Value: Sendable>: AnyServeSetting {
    public let name: String
    public let defaultValue: Value
    public let defaultText: String?
    public let unset: String?
    public let valueName: String
    public let values: String?
    public let requirement: String
    public let mayHoldSecret: Bool
    public let help: String
    public let docs: String?
    /// The value of a flag's text; nil refuses it (the error then says `requirement`).
    let parse: @Sendable (String) -> Value?

    init(
        _ name: String, default defaultValue: Value, defaultText: String?, unset: String? = nil, valueName: String,
        values: String? = nil, requirement: String = "", mayHoldSecret: Bool = false, help: String, docs: String? = nil,
        parse: @escaping @Sendable (String) -> Value?
    ) {
        self.name = name; self.defaultValue = defaultValue; self.defaultText = defaultText; self.unset = unset
        self.valueName = valueName; self.values = values; self.requirement = requirement
        self.mayHoldSecret = mayHoldSecret; self.help = help; self.docs = docs; self.parse = parse
    }

    public func read(_ text: String, into options: inout ServeOptions) -> Bool {
        guard let value = parse(text) else { return false }
        options[self] = value
        return true
    }
}

/// A setting whatever its type: what the flags, the environment, the config file, `config
/// check` and the operator's guide are made from.
public protocol AnyServeSetting: Sendable {
    var name: String { get }
    /// The default as a flag would give it; nil: unset (`unset` says what happens then).
    var defaultText: String? { get }
    /// What happens when a setting without a default is not given ("http://host:port").
    var unset: String? { get }
    /// The placeholder in `--help` (`SECONDS`, `FILE`).
    var valueName: String { get }
    /// The values it takes ("15 to 600", "on or off"); nil: any text.
    var values: String? { get }
    /// The end of the error for a value it refuses: "must be a whole number in 15...600".
    var requirement: String { get }
    /// Shown masked by `config check` (a URL's password, for instance).
    var mayHoldSecret: Bool { get }
    /// One line of help, without the values or the default (they are added).
    var help: String { get }
    /// More for docs/operator.md's table (markdown: links, consequences), after the help.
    var docs: String? { get }
    /// Sets the setting in `options` from its text; false when the text is refused.
    func read(_ text: String, into options: inout ServeOptions) -> Bool
}

extension AnyServeSetting {
    public var flag: String { "--" + name }
    public var environmentVariable: String { "ZKPIN_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The values and the default (or what unset means), as `--help` and the docs say them.
    var valuesAndDefault: String {
        [values, defaultText.map { "default \($0)" } ?? unset.map { "unset: \($0)" }].compactMap { $0 }.joined(separator: "; ")
    }

    /// The help of `--<name>`: the help, the values, the default and the other places the
    /// setting can come from.
    public var helpText: String {
        let details = valuesAndDefault
        return "\(help)\(details.isEmpty ? "" : " (\(details))"). Also \(environmentVariable) or \"\(name)\" in --config."
    }
}

extension ServeSetting where Value == Int {
    /// A whole number in `range`.
    init(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>, valueName: String = "N", help: String, docs: String? = nil) {
        self.init(
            name, default: defaultValue, defaultText: String(defaultValue), valueName: valueName,
            values: "\(range.lowerBound) to \(range.upperBound)",
            requirement: "must be a whole number in \(range.lowerBound)...\(range.upperBound)", help: help, docs: docs
        ) { text in
            Int(text.trimmingCharacters(in: .whitespaces)).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension ServeSetting where Value == Bool {
    /// `on` or `off` (also true/false, yes/no, 1/0).
    init(_ name: String, default defaultValue: Bool, help: String, docs: String? = nil) {
        self.init(
            name, default: defaultValue, defaultText: defaultValue ? "on" : "off", valueName: "on|off", values: "on or off",
            requirement: "must be on or off", help: help, docs: docs
        ) { text in
            switch text.lowercased() {
            case "on", "true", "yes", "1": return true
            case "off", "false", "no", "0": return false
            default: return nil
            }
        }
    }
}

extension ServeSetting where Value == String {
    /// Text with a default; `accepts` may refuse some (the error then says `requirement`).
    init(
        _ name: String, default defaultValue: String, valueName: String, requirement: String = "", help: String, docs: String? = nil,
        accepts: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        self.init(
            name, default: defaultValue, defaultText: defaultValue, valueName: valueName, requirement: requirement, help: help,
            docs: docs
        ) { text in accepts(text) ? text : nil }
    }
}

extension ServeSetting {
    /// A setting without a default: `unset` says what happens when it is not given.
    init<Wrapped>(
        _ name: String, unset: String?, valueName: String, values: String? = nil, requirement: String = "",
        mayHoldSecret: Bool = false, help: String, docs: String? = nil, parse: @escaping @Sendable (String) -> Wrapped?
    ) where Value == Wrapped? {
        self.init(
            name, default: nil, defaultText: nil, unset: unset, valueName: valueName, values: values, requirement: requirement,
            mayHoldSecret: mayHoldSecret, help: help, docs: docs
        ) { text in parse(text).map { .some($0) } }
    }
}

extension ServeSetting where Value == String? {
    /// Text without a default; `accepts` may refuse some (the error then says `requirement`).
    init(
        _ name: String, unset: String?, valueName: String, requirement: String = "", mayHoldSecret: Bool = false, help: String,
        docs: String? = nil, accepts: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        self.init(
            name, unset: unset, valueName: valueName, requirement: requirement, mayHoldSecret: mayHoldSecret, help: help, docs: docs,
            parse: { text in accepts(text) ? text : nil })
    }
}

extension ServeSetting where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// One of the cases' names, in any letter case.
    init(_ name: String, default defaultValue: Value, valueName: String, help: String, docs: String? = nil) {
        let names = Value.allCases.map(\.rawValue)
        let choices = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        self.init(
            name, default: defaultValue, defaultText: defaultValue.rawValue, valueName: valueName, values: choices,
            requirement: "must be \(choices)", help: help, docs: docs
        ) { text in Value(rawValue: text.lowercased()) }
    }
}
