import ArgumentParser
import ZKPinClient

/// `zkpin login PAYLOAD`: signs the web page that shows the payload in.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in the login page that shows this payload, proving the PIN without sending it.")

    @Argument(
        help: ArgumentHelp(
            "URL#CODE, as in the command the sign-in page shows above its QR code (quote it); - reads it from standard input.", valueName: "PAYLOAD"))
    var payload: String?

    @Option(help: ArgumentHelp("A PNG picture of the QR code instead of the text.", valueName: "FILE"))
    var image: String?

    @Option(help: ArgumentHelp("Which stored identity to use, when there are several for the server.", valueName: "EMAIL"))
    var user: String?

    @Flag(
        name: .customLong("pin-stdin"),
        help: "Read the PIN as one line from standard input (after the payload line with -); after a wrong PIN, the next line is tried.")
    var pinStdin = false

    @Flag(
        name: .customLong("accept-host"),
        help: "Go on when the payload's host differs from the one the server reports (asks you to type the host on a terminal).")
    var acceptHost = false

    @Flag(name: .customLong("force"), help: "With --accept-host: go on even for a host this identity was never used with.")
    var force = false

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let payload = try PayloadSource.read(argument: payload, image: image)
            let store = try options.openStore()
            let connection = options.connection()
            let service = try await Discovery(connection: connection).discover(server: payload.server)
            if let mismatch = service.hostMismatch {
                ClientOutput.note(HostWarning.text(reached: mismatch.reached, reported: mismatch.reported))
                if !acceptHost { throw .hostMismatch(payloadHost: mismatch.reached, serviceHost: mismatch.reported) }
            }
            let login = Login(connection: connection, store: store)
            let candidates = try await login.recheck(login.candidates(service: service), service: service, accessCode: payload.accessCode)
            var identity = try login.choose(among: candidates, user: user, server: service.base)
            if identity == nil { identity = try askWhich(candidates.filter(\.canSignIn), server: service.base) }
            guard let identity else { throw .unknownIdentity(userId: user, server: service.base) }
            if let mismatch = service.hostMismatch { try acceptHost(mismatch, identity: identity) }

            // An expired code is reported now, not after the person typed the PIN. For an
            // OpenID Connect sign-in the server names the site the person signs in to.
            let site = try await login.checkAccessCode(payload.accessCode, service: service)
            if let site {
                ClientOutput.note("Signing in to \(site) with \(service.info.name) at \(service.base) as \(identity.userId)")
            } else {
                ClientOutput.note("Signing in to \(service.info.name) at \(service.base) as \(identity.userId)")
            }
            let pin = try PINPrompt.read(fromStandardInput: pinStdin)
            // After a wrong PIN the same code still works: ask again, up to the server's limit.
            let pinStdin = pinStdin
            let userId = try await login.signIn(
                identity: identity, service: service,
                accessCode: payload.accessCode, pin: pin
            ) { left throws(ClientError) in
                try PINPrompt.readAgain(fromStandardInput: pinStdin, attemptsLeft: left)
            }
            if options.json {
                var result: [String: Any] = ["status": "OK", "userId": userId, "name": service.info.name, "server": service.base]
                if let site { result["site"] = site }
                ClientOutput.json(result)
            } else if let site {
                ClientOutput.info("Signed in to \(site) with \(service.info.name) as \(userId)")
            } else {
                ClientOutput.info("Signed in to \(service.info.name) as \(userId)")
            }
        }
    }

    /// The payload's host differs from the server's own: see `HostAcceptance`.
    private func acceptHost(_ mismatch: (reached: String, reported: String), identity: Identity) throws(ClientError) {
        switch HostAcceptance.decide(
            reached: mismatch.reached, reported: mismatch.reported, identityServer: identity.server,
            acceptHost: acceptHost, force: force, interactive: Terminal.isInteractive)
        {
        case .proceed: return
        case let .refuse(reason): throw .cancelled(reason)
        case let .askToType(host):
            ClientOutput.note("The page's host:   \(mismatch.reached)")
            ClientOutput.note("The server's host: \(mismatch.reported)")
            let typed = Terminal.ask("To sign in at \(host) as \(identity.userId), type the host name (\(host)): ")
            guard HostAcceptance.confirms(typed, host: host) else {
                throw .cancelled("Not signed in: the host was not confirmed. Nothing was sent.")
            }
        }
    }

    /// Several identities can sign in: ask which, or refuse when nobody can be asked.
    private func askWhich(_ usable: [Identity], server: String) throws(ClientError) -> Identity {
        let ids = usable.map(\.userId)
        guard Terminal.isInteractive else { throw .ambiguousIdentity(server: server, userIds: ids) }
        ClientOutput.note("Several identities can sign in to \(server):")
        for (index, id) in ids.enumerated() { ClientOutput.note("  \(index + 1). \(id)") }
        guard let answer = Terminal.ask("Which one (1-\(ids.count))? "),
            let number = Int(answer.filter { !$0.isWhitespace }), (1...ids.count).contains(number)
        else {
            throw .ambiguousIdentity(server: server, userIds: ids)
        }
        return usable[number - 1]
    }
}
