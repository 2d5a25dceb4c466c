import ArgumentParser
import Foundation
import ZKPinClient
import ZKPinWire

/// `zkpin push subscribe ENDPOINT --p256dh KEY --auth SECRET`.
struct PushSubscribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Store a Web Push subscription: the server then sends a message there for each request.",
        discussion: """
            ENDPOINT, --p256dh and --auth are what the push service or distributor gave the device \
            (a browser's PushSubscription.toJSON() has the same three). The server takes endpoints \
            only under the push services it is set up for (`zkpin push settings` lists them); the \
            same endpoint again replaces its subscription.

            Example (the key is 87 characters, cut short here):
              zkpin push subscribe https://push.example.net/up/3f9a6c \\
                --p256dh BNcRdreALRFXTkOOUHK1EtK2w...QcYP7DkM --auth tBHItJI5svbpez7KI4CCXg
            """)

    @Argument(help: ArgumentHelp("The subscription's endpoint: the push service's URL for this device.", valueName: "ENDPOINT"))
    var endpoint: String

    @Option(help: ArgumentHelp("The device's P-256 public key (keys.p256dh, base64url).", valueName: "KEY"))
    var p256dh: String

    @Option(help: ArgumentHelp("The device's authentication secret (keys.auth, base64url).", valueName: "SECRET"))
    var auth: String

    @OptionGroup var target: PushIdentityOptions

    func validate() throws {
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
        else {
            throw ValidationError("ENDPOINT must be the push service's URL (https://...), as the push service gave it.")
        }
    }

    func run() async throws {
        try await ClientOutput.run(json: target.client.json) { () async throws(ClientError) in
            let (identity, service) = try await target.identityAndService()
            let stored = try await target.subscriptions.subscribe(
                endpoint: endpoint, keys: PushKeys(p256dh: p256dh, auth: auth), identity: identity, service: service)
            if target.client.json {
                var object = PushSubscriptionText.json(stored)
                object["userId"] = identity.userId
                object["server"] = identity.server
                ClientOutput.json(object)
            } else {
                ClientOutput.info(
                    "Subscribed: \(service.info.name) (\(identity.server)) now sends a Web Push message for each request to \(identity.userId) to \(DisplayText.escaped(stored.endpoint)) (id \(DisplayText.escaped(stored.id)))."
                )
            }
        }
    }
}
