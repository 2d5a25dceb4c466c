import ArgumentParser
import ZKPinClient
import ZKPinWire

/// `zkpin push unsubscribe ID-OR-ENDPOINT`.
struct PushUnsubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsubscribe",
        abstract: "Remove a Web Push subscription, named by its id (from `zkpin push list`) or its endpoint.",
        discussion: """
            Example:
              zkpin push unsubscribe 6c1f0e8a2b9d4c7e5f3a1b0c9d8e7f6a
            """)

    @Argument(help: ArgumentHelp("The subscription's id, or its endpoint URL.", valueName: "ID-OR-ENDPOINT"))
    var subscription: String

    @OptionGroup var target: PushIdentityOptions

    func validate() throws {
        guard !subscription.isEmpty else { throw ValidationError("name the subscription by its id or endpoint (`zkpin push list`).") }
    }

    func run() async throws {
        try await ClientOutput.run(json: target.client.json) { () async throws(ClientError) in
            let (identity, service) = try await target.identityAndService()
            let left = try await target.subscriptions.unsubscribe(subscription, identity: identity, service: service)
            if target.client.json {
                ClientOutput.json(["removed": subscription, "subscriptions": left.map(PushSubscriptionText.json)])
            } else {
                let count = left.count == 1 ? "1 subscription is" : "\(left.count) subscriptions are"
                ClientOutput.info("Removed \(DisplayText.escaped(subscription)); \(count) left for \(identity.userId).")
            }
        }
    }
}
