import ArgumentParser
import ZKPinClient

/// Options every client subcommand takes.
struct ClientOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder of the local identity store (default: $ZKPIN_HOME, else $XDG_DATA_HOME/zkpin, else ~/.local/share/zkpin).",
            valueName: "DIR"))
    var home: String?

    @Flag(name: .long, help: "Print the result as JSON on standard output (messages still go to standard error).")
    var json = false

    @Option(help: ArgumentHelp("Seconds to wait for each answer from the server (default 5).", valueName: "SECONDS"))
    var timeout: Int = 5

    func validate() throws {
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout takes 1...3600 seconds.") }
    }

    var resolvedHome: String { home ?? IdentityStore.defaultHome() }

    func openStore() throws(ClientError) -> IdentityStore {
        try IdentityStore(home: resolvedHome)
    }

    func connection() -> RPSConnection {
        RPSConnection(transport: AsyncHTTPTransport(timeoutSeconds: Int64(timeout)))
    }
}
