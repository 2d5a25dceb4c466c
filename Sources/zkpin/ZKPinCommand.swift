import ArgumentParser

/// `zkpin`: the person's M-Pin client, plus the developer tools (vectors, bench).
@main
struct ZKPinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zkpin",
        abstract: "Zero-knowledge PIN authentication (M-Pin): client and developer tools.",
        discussion: """
        Developer tools:
          zkpin vectors check FILE...     check M-Pin test-vector files
          zkpin vectors generate ...      write the project's own known-answer vectors
          zkpin bench                     time the field, curve, pairing and M-Pin operations
        """,
        subcommands: [VectorsCommand.self, BenchCommand.self, ScanCommand.self, RegisterCommand.self, ConfirmCommand.self,
                      LoginCommand.self, UsersCommand.self, DeleteCommand.self]
    )
}
