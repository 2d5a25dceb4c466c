import ArgumentParser
import ZKPinClient

/// `zkpin otp`: proves the PIN to the server and prints a one-time code for a system that only
/// takes a password (a VPN or SSH through RADIUS or PAM). The code is the last line on
/// standard output, alone, so `zkpin otp | xclip` works.
struct OTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "otp",
        abstract: "Get a one-time code to type where a password-only system asks for the password.")

    @Argument(help: ArgumentHelp("The server: a URL, or a login page's payload URL#CODE (the code is not used).", valueName: "PAYLOAD"))
    var payload: String?

    @Option(help: ArgumentHelp("The server (instead of PAYLOAD), when identities are stored for several.", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("Which stored identity, when there are several.", valueName: "EMAIL"))
    var user: String?

    @Option(help: ArgumentHelp("The system the code is for, as the server names it (needed when it has several).", valueName: "NAME"))
    var service: String?

    @Flag(name: .customLong("pin-stdin"), help: "Read the PIN as one line from standard input.")
    var pinStdin = false

    @OptionGroup var options: ClientOptions

    func validate() throws {
        if payload != nil && server != nil { throw ValidationError("give the server once: PAYLOAD or --server URL") }
    }

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let store = try options.openStore()
            let named = server ?? payload.map { String($0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
            let serverURL = try named.map { (text: String) throws(ClientError) in try ServerURL.normalize(text) }
            let connection = options.connection()
            let login = Login(connection: connection, store: store)
            // As `login` does: a BLOCKED or REVOKED identity that kept its token may have been
            // unblocked since; pass 1 (no PIN) asks the server before any PIN prompt.
            let stored = try matching(store.all(), server: serverURL)
            if !stored.contains(where: \.canSignIn), let first = stored.first {
                let service = try await Discovery(connection: connection).discover(server: first.server)
                _ = try await login.recheck(stored.filter { $0.server == first.server }, service: service)
            }
            let identity = try choose(from: matching(store.all(), server: serverURL))
            let discovered = try await Discovery(connection: connection).discover(server: identity.server)
            let label = service.map { " for \($0)" } ?? ""
            ClientOutput.note("One-time code\(label) from \(discovered.info.name) at \(identity.server) as \(identity.userId)")
            let pin = try PINPrompt.read(fromStandardInput: pinStdin)
            let answer = try await login.oneTimeCode(identity: identity, service: discovered, serviceName: service, pin: pin)
            if options.json {
                ClientOutput.json(["otp": answer.otp, "expiresIn": answer.expiresIn, "service": answer.service])
            } else {
                ClientOutput.note("For \(answer.service), as \(answer.userId); valid once, for \(answer.expiresIn) seconds:")
                ClientOutput.info(answer.otp)
            }
        }
    }

    /// The stored identities that `--user` and the server leave (none: a clear refusal).
    private func matching(_ all: [Identity], server: String?) throws(ClientError) -> [Identity] {
        var matching = all
        if let user { matching = matching.filter { $0.userId.lowercased() == user.lowercased() } }
        if let server { matching = matching.filter { $0.server == server } }
        guard !matching.isEmpty else { throw .unknownIdentity(userId: user, server: server) }
        return matching
    }

    /// The one identity that can get a code among `matching`; a clear refusal otherwise.
    private func choose(from matching: [Identity]) throws(ClientError) -> Identity {
        let usable = matching.filter(\.canSignIn)
        guard let first = usable.first else {
            throw .notRegistered(userId: matching[0].userId, state: matching[0].state, server: matching[0].server)
        }
        guard usable.count == 1 else {
            let names = usable.map { "\($0.userId) (\($0.server))" }.joined(separator: ", ")
            throw .badInput("Several stored identities can get a code: \(names). Choose one with --user EMAIL, and --server URL if needed.")
        }
        return first
    }
}
