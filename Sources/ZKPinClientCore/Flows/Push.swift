import Foundation
import ZKPinWire

/// The device's Web Push subscriptions (docs/api.md "Push (Web Push)"): what the server needs
/// to subscribe, and storing, listing and removing subscriptions. Each call proves the identity
/// with its holder proof (stored with the token and refreshed by each login), never with the PIN.
public struct PushSubscriptions: Sendable {
    public let connection: RPSConnection

    public init(connection: RPSConnection) { self.connection = connection }

    /// `GET /rps/push/settings`: the VAPID key and the push services the server sends to.
    public func settings(service: Service) async throws(ClientError) -> PushSettings {
        let answer = try await connection.get(service.pushURL("settings"))
        try Self.settle(answer)
        return try answer.decode(PushSettings.self)
    }

    /// `POST /rps/push/subscriptions`: stores (or replaces, for the same endpoint) a subscription.
    public func subscribe(
        endpoint: String, keys: PushKeys, identity: Identity, service: Service
    ) async throws(ClientError) -> PushSubscriptionView {
        let (mpinId, holder) = try Self.proof(identity)
        let answer = try await connection.send(
            .post, service.pushURL("subscriptions"), PushSubscribeRequest(mpinId: mpinId, holder: holder, endpoint: endpoint, keys: keys))
        try Self.settle(answer)
        return try answer.decode(PushSubscriptionView.self)
    }

    /// `POST /rps/push/subscriptions/list`: this identity's subscriptions.
    public func list(identity: Identity, service: Service) async throws(ClientError) -> [PushSubscriptionView] {
        let (mpinId, holder) = try Self.proof(identity)
        let answer = try await connection.send(.post, service.pushURL("subscriptions/list"), PushListRequest(mpinId: mpinId, holder: holder))
        try Self.settle(answer)
        return try answer.decode(PushListResponse.self).subscriptions
    }

    /// `DELETE /rps/push/subscriptions`: removes the one named by its id or endpoint; answers
    /// the subscriptions left.
    public func unsubscribe(_ idOrEndpoint: String, identity: Identity, service: Service) async throws(ClientError) -> [PushSubscriptionView] {
        let (mpinId, holder) = try Self.proof(identity)
        let answer = try await connection.send(
            .delete, service.pushURL("subscriptions"), PushUnsubscribeRequest(mpinId: mpinId, holder: holder, subscription: idOrEndpoint))
        if answer.status == 404 {
            throw .badInput(
                "\(identity.userId) has no push subscription \"\(DisplayText.escaped(String(idOrEndpoint.prefix(200))))\" at \(identity.server): `zkpin push list` shows its subscriptions."
            )
        }
        try Self.settle(answer)
        return try answer.decode(PushListResponse.self).subscriptions
    }

    /// The identity's mpinId and holder proof; a clear refusal when it has none.
    package static func proof(_ identity: Identity) throws(ClientError) -> (mpinId: String, holder: String) {
        guard identity.canSignIn, let mpinId = identity.mpinId else {
            throw .notRegistered(userId: identity.userId, state: identity.state, server: identity.server)
        }
        guard let holder = identity.holder, !holder.isEmpty else { throw .noHolderProof(userId: identity.userId, server: identity.server) }
        return (mpinId, holder)
    }

    /// The push endpoints' refusals: 400 with the server's reason (an endpoint outside the
    /// allowed services names them), 403 (a holder proof or identity the server does not take,
    /// or a full device), 404 from a server without push, 429 and the rest as usual.
    static func settle(_ answer: RPSConnection.Answer) throws(ClientError) {
        guard !answer.isSuccess else { return }
        let message = answer.error.map { DisplayText.escaped($0.message) }
        switch answer.status {
        case 400: throw .badInput("The server refused: \(message ?? "bad request").")
        case 403: throw .refused("The server refused: \(message ?? "forbidden").")
        case 404:
            throw .unexpectedResponse(url: answer.url, status: 404, detail: "this server does not offer Web Push (an older version?)")
        default: throw answer.unexpected()
        }
    }
}
