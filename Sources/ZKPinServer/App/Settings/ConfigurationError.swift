/// A setting that cannot be used, and where it came from: from a flag it is a usage error
/// (exit 64), from the environment or the config file a configuration error (exit 78).
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public var source: SettingSource

    public init(_ description: String, source: SettingSource) {
        self.description = description
        self.source = source
    }

    public var isUsageError: Bool {
        if case .flag = source { return true }
        return false
    }
}
