import ArgumentParser
import ZKPinClient

/// Options of the subcommands that only look at this device's identity store.
struct LocalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder of the local identity store (default: $ZKPIN_HOME, else $XDG_DATA_HOME/zkpin, else ~/.local/share/zkpin).",
            valueName: "DIR"))
    var home: String?

    @Flag(name: .long, help: "Print the result as JSON on standard output (messages still go to standard error).")
    var json = false

    var resolvedHome: String { home ?? SQLiteIdentityStore.defaultHome() }

    func openStore() throws(ClientError) -> SQLiteIdentityStore {
        try SQLiteIdentityStore(home: resolvedHome)
    }
}

/// Options every subcommand that talks to a server takes.
struct ClientOptions: ParsableArguments {
    @OptionGroup var local: LocalOptions

    // ArgumentParser adds "(default: 5)" itself.
    @Option(help: ArgumentHelp("Seconds to wait for each answer from the server.", valueName: "SECONDS"))
    var timeout: Int = 5

    func validate() throws {
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout takes 1...3600 seconds.") }
    }

    var json: Bool { local.json }
    var resolvedHome: String { local.resolvedHome }

    func openStore() throws(ClientError) -> SQLiteIdentityStore {
        try local.openStore()
    }

    func connection() -> RPSConnection {
        RPSConnection(transport: AsyncHTTPTransport(timeoutSeconds: Int64(timeout)))
    }
}
