import ArgumentParser
import Foundation
import ZKPinServer

/// The exit statuses of `zkpin-server` (sysexits.h), documented in `zkpin-server --help` and
/// docs/operator.md ("Exit statuses").
enum ServerExitStatus {
    /// EX_USAGE: a wrong flag or flag value.
    static let usage: Int32 = 64
    /// EX_UNAVAILABLE: the port cannot be bound, or D-TA 2 / PostgreSQL cannot be reached.
    static let unavailable: Int32 = 69
    /// EX_SOFTWARE: an error this program did not expect.
    static let software: Int32 = 70
    /// EX_CANTCREAT: the data folder or a file in it cannot be created, read or written.
    static let dataFolder: Int32 = 73
    /// EX_CONFIG: a setting from the environment or the config file, or one that cannot work.
    static let configuration: Int32 = 78

    static let helpText = """
        Exit status: 0 stopped normally; 64 wrong flag or flag value; 69 the port cannot be bound \
        or D-TA 2 / PostgreSQL cannot be reached; 70 unexpected error; 73 the data folder or a \
        file in it cannot be created, read or written; 78 a bad setting in the environment or \
        the config file, or settings that cannot work together.
        """

    static func status(for error: SetupError) -> Int32 {
        switch error.kind {
        case .configuration: return configuration
        case .dataFolder: return dataFolder
        case .unavailable: return unavailable
        }
    }

    /// Prints `zkpin-server: <message>` on standard error and ends with `status`. A usage
    /// error found while running (an option's value that the store refutes) is said the same
    /// way, with a pointer to `--help` rather than the whole usage line (`UsageError`).
    static func fail(_ message: String, status: Int32) -> any Error {
        FileHandle.standardError.write(Data("zkpin-server: \(message)\n".utf8))
        if status == usage { return UsageError() }
        return ExitCode(status)
    }

    static func fail(_ error: ConfigurationError) -> any Error {
        fail(error.description, status: error.isUsageError ? usage : configuration)
    }
}

/// A usage error already said by `ServerExitStatus.fail`: `main` adds where help is and exits 64.
struct UsageError: Error {
    /// `zkpin-server admin users`: the subcommand the person ran, for "see ... --help".
    static var command: String {
        let words = CommandLine.arguments.dropFirst().prefix { !$0.hasPrefix("-") && !$0.contains("@") && !$0.contains("/") }
        return (["zkpin-server"] + words.prefix(3)).joined(separator: " ")
    }
}
