import ArgumentParser
import ZKPinClient

/// `zkpin push list`.
struct PushListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the identity's Web Push subscriptions (id, created, last delivery, endpoint).",
        discussion: """
            The subscriptions the server holds for this identity (this device's token), the \
            browser's and the ones `zkpin push subscribe` stored. Times are UTC.

            Example:
              zkpin push list --user alice@example.com --json
            """)

    @OptionGroup var target: PushIdentityOptions

    func run() async throws {
        try await ClientOutput.run(json: target.client.json) { () async throws(ClientError) in
            let (identity, service) = try await target.identityAndService()
            let found = try await target.subscriptions.list(identity: identity, service: service)
            if target.client.json {
                ClientOutput.json(["userId": identity.userId, "server": identity.server, "subscriptions": found.map(PushSubscriptionText.json)])
                return
            }
            guard !found.isEmpty else {
                ClientOutput.note(
                    "\(identity.userId) has no push subscriptions at \(identity.server). Add one with `zkpin push subscribe ENDPOINT --p256dh KEY --auth SECRET`."
                )
                return
            }
            for line in PushSubscriptionText.table(found) { ClientOutput.info(line) }
        }
    }
}
