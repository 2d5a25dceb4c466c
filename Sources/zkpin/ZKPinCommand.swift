import ArgumentParser
import Foundation
import ZKPinClient
import ZKPinMath
import ZKPinMathGMP
import ZKPinWire

/// `zkpin`: the person's M-Pin client, plus the developer tools (vectors, bench).
@main
struct ZKPinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zkpin",
        abstract: "Zero-knowledge PIN authentication (M-Pin): client and developer tools.",
        discussion: """
            Sign in to web pages with a 4-digit PIN that never leaves this machine:
              zkpin register EMAIL --server URL  ask for an identity (a link is mailed)
              zkpin confirm EMAIL                finish a registration (--no-wait)
              zkpin scan 'URL#CODE'              show the service a payload belongs to
              zkpin login 'URL#CODE'             sign in the page that shows the code
              zkpin approve [--watch]            answer what sites ask you to approve
              zkpin push subscribe|list|...      Web Push of requests to any device
              zkpin otp                          a one-time code (VPN, SSH)
              zkpin change-pin                   change the PIN (the current one first)
              zkpin users, zkpin delete EMAIL    list or remove stored identities

            Developer tools:
              zkpin vectors check FILE...        check M-Pin test-vector files
              zkpin vectors generate ...         write the project's known-answer files
              zkpin bench                        time the crypto (release build)
              zkpin load --server URL ...        load-test a server

            Exit status: 0 success, 1 authentication refused or vectors failed,
            2 bad input, 3 network or server trouble. When the reader of standard
            output closes it early (`zkpin users | head -1`), the command ends
            quietly with 0. With --json, standard output carries exactly one JSON
            document, also on failure ({"status", "message", "exitCode"}); every
            other line goes to standard error.
            """,
        version: ZKPinVersion.text,
        subcommands: [
            ScanCommand.self, RegisterCommand.self, ConfirmCommand.self, LoginCommand.self,
            UsersCommand.self, DeleteCommand.self, ChangePINCommand.self, OTPCommand.self, ApproveCommand.self, PushCommand.self,
            VectorsCommand.self,
            BenchCommand.self, LoadCommand.self
        ]
    )

    /// Like ArgumentParser's default, except that bad command-line input exits with 2 (the
    /// project's "bad input" status) instead of 64.
    static func main() async {
        FieldArithmeticSupport.exitIfUnsupported(program: "zkpin")
        GMPFieldInversion.install()  // the fast blinded Fp.inverse
        StandardStreams.ignoreBrokenPipeSignal()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let asksForJSON = CommandLine.arguments.dropFirst().contains("--json")
            if code == .validationFailure {
                let message = fullMessage(for: error)
                ClientOutput.note(message)
                if asksForJSON {
                    ClientOutput.jsonFailure(
                        status: .badInput, message: message.split(separator: "\n").first.map(String.init) ?? message,
                        exitCode: 2)
                }
                Foundation.exit(2)
            }
            // A failure outside ClientOutput.run (bench, vectors) still leaves one document.
            if asksForJSON && !code.isSuccess && !ClientOutput.hasWrittenJSON {
                ClientOutput.jsonFailure(status: .badInput, message: fullMessage(for: error), exitCode: code.rawValue)
            }
            exit(withError: error)
        }
    }
}
