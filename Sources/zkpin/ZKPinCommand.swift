import ArgumentParser
import Foundation
import ZKPinMath

/// `zkpin`: the person's M-Pin client, plus the developer tools (vectors, bench).
@main
struct ZKPinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zkpin",
        abstract: "Zero-knowledge PIN authentication (M-Pin): client and developer tools.",
        discussion: """
        Sign in to web pages with a 4-digit PIN that never leaves this machine:
          zkpin register EMAIL --server URL   ask for an identity; confirm the mailed link
          zkpin confirm EMAIL                 finish a registration started with --no-wait
          zkpin scan 'URL#CODE'               show which service a login payload belongs to
          zkpin login 'URL#CODE'              sign the page showing that code in
          zkpin users / zkpin delete EMAIL    list or remove stored identities

        Developer tools:
          zkpin vectors check FILE...         check M-Pin test-vector files
          zkpin vectors generate ...          write the project's own known-answer vectors
          zkpin bench                         time the crypto operations (release build)
          zkpin load --server URL --outbox DIR  load-test servers (N identities logging in)

        Exit status: 0 success, 1 authentication refused or vectors failed, 2 bad input,
        3 network or server trouble.
        """,
        subcommands: [ScanCommand.self, RegisterCommand.self, ConfirmCommand.self, LoginCommand.self,
                      UsersCommand.self, DeleteCommand.self, VectorsCommand.self, BenchCommand.self, LoadCommand.self]
    )

    /// Like ArgumentParser's default, except that bad command-line input exits with 2 (the
    /// project's "bad input" status) instead of 64.
    static func main() async {
        FieldArithmeticSupport.exitIfUnsupported(program: "zkpin")
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
