import ArgumentParser
import ZKPinClient
import ZKPinWire

/// `zkpin push settings`: what a device needs to subscribe.
struct PushSettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the server's VAPID public key and the push services it sends to.",
        discussion: """
            The VAPID key is what a push service or distributor asks for as the \
            applicationServerKey; an endpoint under another push service is refused by \
            `zkpin push subscribe`. Needs no identity when --server is given.

            Example:
              zkpin push settings --server https://login.example.com
            """)

    @Option(help: ArgumentHelp("The server (default: the stored identity's).", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("Which stored identity's server, when there are several.", valueName: "EMAIL"))
    var user: String?

    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await ClientOutput.run(json: client.json) { () async throws(ClientError) in
            let base: String
            if let server, user == nil {
                base = try ServerURL.normalize(server)
            } else {
                base = try IdentityChoice.one(in: try client.openStore(), user: user, server: server).server
            }
            let service = try await Discovery(connection: client.connection()).discover(server: base)
            let settings = try await PushSubscriptions(connection: client.connection()).settings(service: service)
            if client.json {
                ClientOutput.json(["server": base, "vapidPublicKey": settings.vapidPublicKey, "services": settings.services])
            } else {
                ClientOutput.info("VAPID public key: \(DisplayText.escaped(settings.vapidPublicKey))")
                ClientOutput.info("Push services: \(settings.services.map(DisplayText.escaped).joined(separator: ", "))")
            }
        }
    }
}
