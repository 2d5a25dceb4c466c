/// Where the effective value of a serve setting came from, highest precedence first.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case flag(String)
    case environment(String)
    case file(path: String)
    case defaultValue
    case unset

    public var description: String {
        switch self {
        case let .flag(flag): return "flag \(flag)"
        case let .environment(variable): return "environment \(variable)"
        case let .file(path): return "file \(path)"
        case .defaultValue: return "default"
        case .unset: return "unset"
        }
    }
}
