import ArgumentParser
import ZKPinClient

/// Options every client subcommand takes.
struct ClientOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Folder of the local identity store (default: $ZKPIN_HOME, else $XDG_DATA_HOME/zkpin, else ~/.local/share/zkpin).",
        valueName: "DIR"))
    var home: String?

    @Flag(name: .long, help: "Print the result as JSON on standard output (messages still go to standard error).")
    var json = false

    var resolvedHome: String { home ?? IdentityStore.defaultHome() }

    func openStore() throws(ClientError) -> IdentityStore {
        try IdentityStore(home: resolvedHome)
    }

    func connection() -> RPSConnection {
        RPSConnection(transport: AsyncHTTPTransport())
    }
}
