import ArgumentParser
import ZKPinClient

/// `zkpin change-pin [--user EMAIL]`: proves the current PIN to the server, then stores the
/// token for a new one (the server never learns either).
struct ChangePINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-pin",
        abstract: "Change the PIN of a stored identity, after proving the current one to its server.")

    @Option(help: ArgumentHelp("Which stored identity, when there are several.", valueName: "EMAIL"))
    var user: String?

    @Option(help: ArgumentHelp("The server, when the identity is stored for several.", valueName: "URL"))
    var server: String?

    @Flag(
        name: .customLong("pin-stdin"),
        help: "Read the current PIN, then (once the server accepted it) the new PIN, one line each from standard input.")
    var pinStdin = false

    @Flag(name: .customLong("allow-trivial-pin"), help: "Keep a new PIN that is easy to guess (1111, 1234, 1212) without asking.")
    var allowTrivialPIN = false

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let store = try options.openStore()
            let server = try server.map { (text: String) throws(ClientError) in try ServerURL.normalize(text) }
            let identity = try choose(from: store.all(), server: server)
            let connection = options.connection()
            let service = try await Discovery(connection: connection).discover(server: identity.server)
            ClientOutput.note("Changing the PIN of \(identity.userId) at \(service.info.name) (\(identity.server))")
            let change = PINChange(connection: connection, store: store)
            // The current PIN is checked with the server before the new one is asked for.
            let old = try PINPrompt.read(fromStandardInput: pinStdin, prompt: "Current PIN: ")
            try await change.proveCurrent(identity: identity, service: service, pin: old)
            let new = try PINPrompt.readNew(fromStandardInput: pinStdin, allowTrivial: allowTrivialPIN)
            let stored = try change.storeNew(identity: identity, service: service, old: old, new: new)
            if options.json {
                ClientOutput.json(["status": "OK", "userId": stored.userId, "server": stored.server])
            } else {
                ClientOutput.info("Changed the PIN of \(stored.userId) at \(service.info.name); sign in with the new PIN from now on.")
            }
        }
    }

    /// The one identity that `--user` and `--server` leave; a clear refusal otherwise.
    private func choose(from all: [Identity], server: String?) throws(ClientError) -> Identity {
        var matching = all
        if let user { matching = matching.filter { $0.userId.lowercased() == user.lowercased() } }
        if let server { matching = matching.filter { $0.server == server } }
        guard !matching.isEmpty else { throw .unknownIdentity(userId: user, server: server) }
        let usable = matching.filter(\.canSignIn)
        guard let first = usable.first else {
            throw .notRegistered(userId: matching[0].userId, state: matching[0].state, server: matching[0].server)
        }
        guard usable.count == 1 else {
            let names = usable.map { "\($0.userId) (\($0.server))" }.joined(separator: ", ")
            throw .badInput("Several stored identities can change their PIN: \(names). Choose one with --user EMAIL, and --server URL if needed.")
        }
        return first
    }
}
