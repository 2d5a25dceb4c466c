import ArgumentParser
import ZKPinClient

/// `zkpin delete EMAIL`: removes a stored identity from this device, after asking (or with
/// `--yes`): the token cannot be brought back, only a new registration replaces it.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a stored identity (its token) from this device, for good: asks first unless --yes.")

    @Argument(help: "The e-mail address of the identity.")
    var email: String

    @Option(help: ArgumentHelp("The server, when EMAIL is stored for several.", valueName: "URL"))
    var server: String?

    @Flag(name: .customLong("yes"), help: "Delete without asking (for scripts; without a terminal it is required).")
    var yes = false

    @OptionGroup var options: LocalOptions

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let store = try options.openStore()
            let server = try server.map { (text: String) throws(ClientError) in try ServerURL.normalize(text) }
            let stored = try store.identities(userId: email).filter { server == nil || $0.server == server }
            guard !stored.isEmpty else { throw .unknownIdentity(userId: email, server: server) }
            guard stored.count == 1 else {
                throw .badInput(
                    "\(email) is stored for several servers: \(stored.map(\.server).joined(separator: ", ")). Choose one with --server URL.")
            }
            if !yes {
                guard Terminal.isInteractive else {
                    throw .badInput(
                        "Deleting \(email) for \(stored[0].server) removes its token for good (only a new registration replaces it). Nothing was deleted: there is no terminal to ask on, so pass --yes to delete it."
                    )
                }
                let question =
                    "Delete \(email) for \(stored[0].server) from this device? Its token cannot be brought back; signing in again needs a new registration."
                guard Terminal.confirm(question) else { throw .cancelled("Nothing was deleted.") }
            }
            try store.delete(userId: email, server: stored[0].server)
            if options.json {
                ClientOutput.json(["status": "OK", "userId": email, "server": stored[0].server])
            } else {
                ClientOutput.info("Deleted \(email) for \(stored[0].server) from this device.")
                ClientOutput.note("The server still knows this identity; if the device was lost, ask the site to revoke it.")
            }
        }
    }
}
