import ArgumentParser
import Foundation
import ZKPinClient
import ZKPinWire

/// `zkpin push`: Web Push subscriptions for devices that are not a browser (a UnifiedPush
/// distributor, a desktop notifier, an integration test). The web app subscribes by itself.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Get a Web Push message when a site asks you to approve something (subscriptions for devices that are not a browser).",
        discussion: """
            The server sends each subscribed device a small encrypted Web Push message (RFC 8030, \
            8291, 8292) when a site asks this person to approve something; the device then shows \
            it, and `zkpin approve` answers it with the PIN. The web app subscribes by itself; \
            these commands store any other Web Push endpoint, for the stored identity (as \
            `zkpin approve` picks it: --user EMAIL and --server URL when there are several). \
            They prove the identity with the holder proof stored at registration and refreshed \
            by each `zkpin login`, and ask no PIN.

            To see requests in this terminal as they arrive, without Web Push: `zkpin approve --watch`.
            """,
        subcommands: [PushSubscribeCommand.self, PushListCommand.self, PushUnsubscribeCommand.self, PushSettingsCommand.self])
}

/// The identity the push commands act for, and the way to the server.
struct PushIdentityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The server, when identities are stored for several.", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("Which stored identity, when there are several.", valueName: "EMAIL"))
    var user: String?

    @OptionGroup var client: ClientOptions

    /// The chosen identity and its discovered server.
    func identityAndService() async throws(ClientError) -> (Identity, Service) {
        let identity = try IdentityChoice.one(in: try client.openStore(), user: user, server: server)
        let service = try await Discovery(connection: client.connection()).discover(server: identity.server)
        return (identity, service)
    }

    var subscriptions: PushSubscriptions { PushSubscriptions(connection: client.connection()) }
}

/// How a subscription is shown: on one line for people, as an object for scripts.
enum PushSubscriptionText {
    static func json(_ s: PushSubscriptionView) -> [String: Any] {
        var object: [String: Any] = ["id": s.id, "endpoint": s.endpoint, "created": s.created]
        if let last = s.lastDelivery { object["lastDelivery"] = last }
        return object
    }

    static func date(_ seconds: Int?) -> String {
        guard let seconds else { return "-" }
        return ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// A table: id, created, last delivery, endpoint (escaped: it comes from the server).
    static func table(_ subscriptions: [PushSubscriptionView]) -> [String] {
        let header = ["ID", "CREATED", "LAST DELIVERY", "ENDPOINT"]
        let rows = subscriptions.map { [DisplayText.escaped($0.id), date($0.created), date($0.lastDelivery), DisplayText.escaped($0.endpoint)] }
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
