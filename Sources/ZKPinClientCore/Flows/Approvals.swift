import Foundation
import ZKPinProtocol
import ZKPinWire

/// The person's side of approvals (docs/api.md "Approvals: the person's side"): list the
/// pending requests of a signing-capable identity and answer one, each request a DVS
/// signature of the identity (mpin-crypto.md 4.1) on SHA-256 of the documented text.
public struct Approvals: Sendable {
    public let connection: RPSConnection
    public let store: any IdentityStore
    /// The seconds of the signature's time (the device's clock; the server allows two minutes).
    public var now: @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }

    public init(connection: RPSConnection, store: any IdentityStore) {
        self.connection = connection
        self.store = store
    }

    /// `POST /rps/approvals`: the identity's pending requests, oldest first.
    public func pending(identity: Identity, service: Service, pin: PIN) async throws(ClientError) -> [PendingApproval] {
        let mpinId = try signingIdentity(identity)
        let time = now()
        let signature = try sign(ApprovalText.list(mpinId: mpinId, time: time), identity: identity, service: service, pin: pin, time: time)
        let answer = try await connection.send(
            .post, service.approvalsURL,
            ApprovalsRequest(mpinId: mpinId, time: time, U: Hex.encode(signature.u), V: Hex.encode(signature.v)))
        try settle(answer, identity: identity, mpinId: mpinId)
        return try answer.decode(ApprovalsResponse.self).requests
    }

    /// `POST /rps/approvals/answer`: approves (or denies) `request`; answers the server's status.
    public func answer(
        _ request: PendingApproval, approve: Bool, identity: Identity, service: Service, pin: PIN
    ) async throws(ClientError) -> String {
        try await answer(request, verb: approve ? "approve" : "deny", identity: identity, service: service, pin: pin)
    }

    /// `verb`: "approve", "deny", or "not_me" (a denial that tells the server the person did
    /// not ask: it mails them, and may block their identities, as the operator set).
    public func answer(
        _ request: PendingApproval, verb: String, identity: Identity, service: Service, pin: PIN
    ) async throws(ClientError) -> String {
        let mpinId = try signingIdentity(identity)
        let time = now()
        let text = ApprovalText.answer(
            answer: verb, authReqId: request.authReqId, clientId: request.clientId, bindingMessage: request.bindingMessage,
            time: time, authorizationDetails: request.authorizationDetails)
        let signature = try sign(text, identity: identity, service: service, pin: pin, time: time)
        let answer = try await connection.send(
            .post, service.approvalsURL + "/answer",
            ApprovalAnswerRequest(
                mpinId: mpinId, authReqId: request.authReqId, answer: verb, time: time, U: Hex.encode(signature.u),
                V: Hex.encode(signature.v)))
        if answer.status == 404 {
            throw .cancelled("The request \"\(request.bindingMessage)\" from \(request.site) is no longer waiting: it expired or was answered.")
        }
        try settle(answer, identity: identity, mpinId: mpinId)
        return try answer.decode(ApprovalAnswerResponse.self).status
    }

    private func signingIdentity(_ identity: Identity) throws(ClientError) -> String {
        guard identity.canSignIn, let mpinId = identity.mpinId else {
            throw .notRegistered(userId: identity.userId, state: identity.state, server: identity.server)
        }
        guard identity.canSign else {
            throw .badInput(
                "\(identity.userId) was registered before approvals existed and cannot sign them. Register this device again: `zkpin register \(identity.userId) --server \(identity.server)`."
            )
        }
        return mpinId
    }

    /// The DVS signature: the client secret CS = TOKEN + PIN·A, blinded by z, the PIN taken
    /// out again; then (t, U, V) on SHA-256 of `text`.
    private func sign(_ text: [UInt8], identity: Identity, service: Service, pin: PIN, time: Int) throws(ClientError) -> DVSSignatureBytes {
        guard let mpinId = identity.mpinId, let id = Hex.decode(mpinId), let token = identity.token.flatMap(Hex.decode),
            let z = identity.signingKey.flatMap(Hex.decode)
        else { throw .invalidToken }
        let suite = service.curve.suite
        do {
            let clientSecret = try suite.changePIN(token: token, id: id, oldPIN: pin.value, newPIN: 0)
            let signingToken = try suite.extractPIN(clientSecret: try suite.dvsBlind(clientSecret, z: z, field: "CS"), id: id, pin: pin.value)
            return try suite.dvsSign(
                identity: id, token: signingToken, pin: pin.value, message: Digest.sha256(text), time: time, timePermit: nil, date: 0)
        } catch {
            throw .invalidToken
        }
    }

    private func settle(_ answer: RPSConnection.Answer, identity: Identity, mpinId: String) throws(ClientError) {
        guard !answer.isSuccess else { return }
        switch (answer.status, answer.error?.code) {
        case (410, _):
            try store.markBlocked(server: identity.server, userId: identity.userId, mpinId: mpinId)
            throw .blocked(userId: identity.userId, server: identity.server)
        case (401, .wrongPIN?): throw .wrongPIN(attemptsLeft: answer.error?.attemptsLeft)
        case (401, _): throw .invalidToken
        case (403, .identityNotAuthorized?):
            try store.markRevoked(server: identity.server, userId: identity.userId, mpinId: mpinId)
            throw .identityNotAuthorized(userId: identity.userId, server: identity.server)
        case (400, _), (403, _): throw .badInput("The server refused: \(answer.error?.message ?? "bad request")")
        default: throw answer.unexpected()
        }
    }
}
