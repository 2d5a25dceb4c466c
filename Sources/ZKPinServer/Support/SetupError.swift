/// Why the server cannot start: a setting, the data folder or a service it needs.
public struct SetupError: Error, CustomStringConvertible {
    /// What kind of trouble, for the exit status of `zkpin-server` (see `ServerExitStatus`).
    public enum Kind: Sendable {
        /// A setting that cannot work (wrong curve for the data folder, missing key file...).
        case configuration
        /// The data folder or a file in it cannot be created, read or written.
        case dataFolder
        /// A service this one needs (a separate D-TA 2, PostgreSQL) cannot be reached.
        case unavailable
    }

    public var description: String
    public var kind: Kind
    public init(_ description: String, kind: Kind = .configuration) {
        self.description = description
        self.kind = kind
    }
}
