import ArgumentParser
import Foundation
import ZKPinClient

/// `zkpin register EMAIL --server URL`: asks for an identity, prints the confirmation code,
/// waits for the activation and stores the token.
struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register an identity by e-mail and store its PIN-protected token.",
        discussion: """
            The server mails an activation link to EMAIL. Open it and type the confirmation code \
            this command prints. The command waits (default 10 minutes), then asks for a 4-digit \
            PIN twice and stores only the token. With --no-wait it stops after printing the code; \
            finish later with `zkpin confirm EMAIL`.
            """)

    @Argument(help: "The e-mail address of the identity.")
    var email: String

    @Option(help: ArgumentHelp("The server's URL, e.g. http://127.0.0.1:8080.", valueName: "URL"))
    var server: String

    @Option(help: ArgumentHelp("A name for this device, shown on the activation page (default: the host name).", valueName: "NAME"))
    var device: String?

    @Option(help: ArgumentHelp("Seconds to wait for the activation (default 600).", valueName: "SECONDS"))
    var wait: Int?

    @Flag(name: .customLong("no-wait"), help: "Do not wait; finish later with `zkpin confirm EMAIL`.")
    var noWait = false

    @Flag(name: .customLong("pin-stdin"), help: "Read the PIN as one line from standard input.")
    var pinStdin = false

    @Flag(name: .customLong("allow-trivial-pin"), help: "Keep a PIN that is easy to guess (1111, 1234, 1212) without asking.")
    var allowTrivialPIN = false

    @OptionGroup var options: ClientOptions

    func validate() throws {
        if let wait, wait <= 0 { throw ValidationError("--wait takes a positive number of seconds.") }
        if wait != nil && noWait { throw ValidationError("Give either --wait SECONDS or --no-wait, not both.") }
    }

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let email = try Email.validate(email)
            let server = try ServerURL.normalize(server)
            let store = try options.openStore()
            let connection = options.connection()
            let service = try await Discovery(connection: connection).discover(server: server)
            let registration = Registration(connection: connection, store: store)
            let deviceName = device ?? ProcessInfo.processInfo.hostName
            let started = try await registration.start(email: email, deviceName: deviceName, service: service)

            // Under --json this line goes to standard error; the code is also in the JSON.
            ClientOutput.info("Confirmation code: \(started.confirmationCode)")
            ClientOutput.note(
                """
                \(service.info.name) (\(service.base)) mailed an activation link to \(email).
                Open the link and type the confirmation code above on its page, then press Confirm.
                """)
            if noWait {
                if options.json {
                    ClientOutput.json([
                        "status": "OK", "userId": email, "server": server,
                        "state": started.identity.state.rawValue,
                        "confirmationCode": started.confirmationCode,
                        "expires": started.expireTime
                    ])
                }
                ClientOutput.note("When you have confirmed, run `zkpin confirm \(email)` to choose your PIN (before \(started.expireTime)).")
                return
            }
            try await ActivationFinisher.finish(
                registration: registration, identity: started.identity, service: service,
                waitSeconds: wait ?? 600, pinFromStandardInput: pinStdin, allowTrivialPIN: allowTrivialPIN, json: options.json,
                confirmationCode: started.confirmationCode)
        }
    }
}
