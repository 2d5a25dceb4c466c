import ArgumentParser
import Foundation
import ZKPinClient
import ZKPinWire

/// `zkpin confirm EMAIL`: finishes a registration started with `--no-wait` or interrupted.
struct ConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Finish a registration: wait for the activation, choose the PIN, store the token.")

    @Argument(help: "The e-mail address given to `zkpin register`.")
    var email: String

    @Option(help: ArgumentHelp("The server, when EMAIL has registrations on several.", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("Seconds to wait for the activation.", valueName: "SECONDS"))
    var wait: Int = 600

    @Flag(name: .customLong("pin-stdin"), help: "Read the PIN as one line from standard input.")
    var pinStdin = false

    @Flag(name: .customLong("allow-trivial-pin"), help: "Keep a PIN that is easy to guess (1111, 1234, 1212) without asking.")
    var allowTrivialPIN = false

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard wait > 0 else { throw ValidationError("--wait takes a positive number of seconds.") }
    }

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let store = try options.openStore()
            let server = try server.map { (text: String) throws(ClientError) in try ServerURL.normalize(text) }
            var pending = try store.identities(userId: email).filter(\.hasPendingRegistration)
            if let server { pending = pending.filter { $0.server == server } }
            guard let identity = pending.first else {
                let known = try store.identities(userId: email).first
                if let known, known.canSignIn {
                    throw .badInput(
                        "\(email) is already registered at \(known.server) and has no registration waiting. Use `zkpin login`, or `zkpin register \(email) --server URL` for a new one."
                    )
                }
                throw .unknownIdentity(userId: email, server: server)
            }
            guard pending.count == 1 else {
                throw .badInput(
                    "\(email) has registrations waiting at several servers: \(pending.map(\.server).joined(separator: ", ")). Choose one with --server URL."
                )
            }
            let connection = options.connection()
            let service = try await Discovery(connection: connection).discover(server: identity.server)
            let code = identity.pendingRegOTT.flatMap { ConfirmationCode.code(regOTT: $0) }
            if let code {
                ClientOutput.info("Confirmation code: \(code)")
                ClientOutput.note("Type it on the page of the activation link mailed to \(email), if you have not yet.")
            }
            let registration = Registration(connection: connection, store: store)
            try await ActivationFinisher.finish(
                registration: registration, identity: identity, service: service,
                waitSeconds: wait, pinFromStandardInput: pinStdin, allowTrivialPIN: allowTrivialPIN, json: options.json,
                confirmationCode: code)
        }
    }
}
