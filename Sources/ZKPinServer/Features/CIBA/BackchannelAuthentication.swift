import Foundation
import ZKPinWire

/// The form fields of `POST /oauth/bc-authorize` (CIBA Core 1.0 section 7.1).
struct BackchannelParameters: Decodable, Sendable {
    var client_id: String?
    var client_secret: String?
    var scope: String?
    var login_hint: String?
    var id_token_hint: String?
    var login_hint_token: String?
    var binding_message: String?
    var authorization_details: String?
    var requested_expiry: String?
    var client_notification_token: String?
    var user_code: String?
    var acr_values: String?
}

/// The successful answer (CIBA Core 1.0 section 7.3).
struct BackchannelResponse: Codable, Sendable, Equatable {
    var auth_req_id: String
    var expires_in: Int
    var interval: Int
}

extension OAuthError {
    static func invalidBindingMessage(_ d: String) -> OAuthError { OAuthError(code: "invalid_binding_message", description: d) }
    static func invalidAuthorizationDetails(_ d: String) -> OAuthError { OAuthError(code: "invalid_authorization_details", description: d) }
}

extension OIDCProvider {
    static let cibaGrant = "urn:openid:params:grant-type:ciba"
    /// Requests live this long unless the client asks otherwise (`requested_expiry`, 60...600).
    static let backchannelExpiry = 300
    static let backchannelExpiryRange = 60...600
    /// Seconds between polls at first (CIBA's default).
    static let backchannelInterval = 5
    static let bindingMessageLimit = 200
    static let bindingMessageByteLimit = 800
    static let authorizationDetailsLimit = 4096

    /// `POST /oauth/bc-authorize`: a site asks a person to approve something. The person is
    /// named by `login_hint` (the e-mail) or `id_token_hint`; a name nobody registered gets
    /// the same answer as a registered one (the request then only expires), so that the
    /// endpoint tells no site who has an account.
    func backchannelAuthorize(_ p: BackchannelParameters, basic: BasicCredentials?, address: String) async throws(OAuthError)
        -> BackchannelResponse
    {
        let client = try await authenticateClient(id: p.client_id, secret: p.client_secret, basic: basic)
        guard let mode = client.ciba, !client.isPublic else {
            throw .unauthorizedClient("this client is not registered for backchannel authentication (admin clients add --ciba)")
        }
        let scope = try Self.answeredGrantScope(p.scope)
        let message = try Self.bindingMessage(p.binding_message)
        let details = try Self.authorizationDetails(p.authorization_details)
        let expiry = try Self.requestedExpiry(p.requested_expiry)
        var notificationToken: String?
        if mode == .ping {
            guard let token = p.client_notification_token, !token.isEmpty, token.utf8.count <= 1024,
                !token.contains(where: { $0.isWhitespace || $0.isNewline })
            else { throw .invalidRequest("client_notification_token is required in ping mode (1 to 1024 characters, no spaces)") }
            notificationToken = token
        }
        let (email, userId) = try await hintedPerson(p, client: client)
        try await countRequest(client: client, email: email, address: address)
        let now = self.now
        let waiting = try await stored { try await $0.pendingBackchannelRequestCount(person: email, now: now) }
        guard waiting < limits.pendingRequestsPerPerson else {
            throw OAuthError(
                code: "access_denied",
                description: "\(waiting) requests already wait for this person's answer: wait until they are answered or expire", statusCode: 403)
        }
        let request = BackchannelRequest(
            id: Tokens.fresh(), clientId: client.id, userId: userId, scope: scope, bindingMessage: message,
            authorizationDetails: details, notificationToken: notificationToken, created: now, expires: now + expiry,
            interval: Self.backchannelInterval)
        _ = try await stored { try await $0.insertBackchannelRequest(request, person: email) }
        metrics.backchannelRequests.increment()
        if let userId {
            await events.emit(
                .approvalRequested(userId: userId, requestId: request.id, site: client.name, message: message, expires: request.expires))
        }
        await audit.record(
            "ciba_request", userId: userId, address: address,
            "client \(client.id): \(message)\(userId == nil ? " (nobody registered by that hint)" : "")")
        return BackchannelResponse(auth_req_id: request.id, expires_in: expiry, interval: request.interval)
    }

    /// The person a request names (the hint's e-mail address) and whether anybody registered
    /// is (`userId`, nil when not); refuses an unusable hint.
    private func hintedPerson(_ p: BackchannelParameters, client: OIDCClient) async throws(OAuthError) -> (email: String, userId: String?) {
        if p.login_hint_token != nil { throw .invalidRequest("login_hint_token is not supported: use login_hint or id_token_hint") }
        let loginHint = p.login_hint.flatMap { $0.isEmpty ? nil : $0 }
        let idTokenHint = p.id_token_hint.flatMap { $0.isEmpty ? nil : $0 }
        let email: String
        switch (loginHint, idTokenHint) {
        case (let hint?, nil):
            guard hint.utf8.count <= 320, let normalized = EmailAddress.normalized(hint) else {
                throw .invalidRequest("login_hint must be the person's e-mail address")
            }
            email = normalized
        case (nil, let hint?):
            guard hint.utf8.count <= 8192, let claims = try? await keys.verify(hint, now: now), claims.iss == issuer else {
                throw .invalidRequest("the id_token_hint was not issued by this service")
            }
            guard claims.aud == client.id else { throw .invalidRequest("the id_token_hint was issued to another client") }
            email = claims.email
        default:
            throw .invalidRequest("give exactly one of login_hint and id_token_hint")
        }
        let people = try await stored { try await $0.identities(userId: email) }
        return (email, people.contains { $0.state == .active } ? email : nil)
    }

    /// A client's requests per minute, and its requests for one person in five minutes (about
    /// what can be pending at once: a person's device lists at most that many from one site).
    /// The person's count is kept by the hint, registered or not, so that the limit tells no
    /// site who has an account.
    static let requestsPerClient = RateLimiter.Rule(limit: 60, window: 60)
    static let requestsPerClientAndPerson = RateLimiter.Rule(limit: 10, window: 300)

    private func countRequest(client: OIDCClient, email: String, address: String) async throws(OAuthError) {
        let now = self.now
        let withinClient: Bool, withinPerson: Bool
        do {
            withinClient = try await limiter.hit("ciba-client:\(client.id)", Self.requestsPerClient, now: now)
            withinPerson = try await limiter.hit("ciba-person:\(client.id):\(email)", Self.requestsPerClientAndPerson, now: now)
        } catch { throw .temporarilyUnavailable }
        guard withinClient, withinPerson else {
            let rule = withinClient ? Self.requestsPerClientAndPerson : Self.requestsPerClient
            let error = OAuthError(
                code: "too_many_requests",
                description: withinClient
                    ? "this person already has \(rule.limit) requests from this client in \(rule.window / 60) minutes; wait for their answers"
                    : "more than \(rule.limit) requests from this client in a minute; slow down",
                statusCode: 429, retryAfter: rule.window)
            await refused(error, clientId: client.id, address: address)
            throw error
        }
    }

    /// Required here (the person must see what they approve): one line of at most 200
    /// characters and 800 bytes, keeping `DisplayText`'s rule (what is shown is what is signed).
    static func bindingMessage(_ text: String?) throws(OAuthError) -> String {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidBindingMessage("binding_message is required: the text the person sees and approves")
        }
        guard text.count <= bindingMessageLimit, text.utf8.count <= bindingMessageByteLimit else {
            throw .invalidBindingMessage("binding_message is at most \(bindingMessageLimit) characters and \(bindingMessageByteLimit) bytes")
        }
        if let problem = DisplayText.problem(text) {
            throw .invalidBindingMessage("binding_message must be one line of plain text that shows as it is signed: \(problem)")
        }
        return text
    }

    /// RFC 9396: a JSON array of objects, each with a string `type`, its keys and strings
    /// keeping `DisplayText`'s rule; kept as sent.
    static func authorizationDetails(_ text: String?) throws(OAuthError) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.count <= authorizationDetailsLimit else {
            throw .invalidAuthorizationDetails("authorization_details is at most \(authorizationDetailsLimit) bytes")
        }
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let array = parsed as? [Any], !array.isEmpty,
            array.allSatisfy({ (($0 as? [String: Any])?["type"] as? String).map { !$0.isEmpty } ?? false })
        else { throw .invalidAuthorizationDetails("authorization_details must be a JSON array of objects, each with a type") }
        if let problem = DisplayText.problem(inJSON: array) {
            throw .invalidAuthorizationDetails("every string in authorization_details must show as it is signed: \(problem)")
        }
        return text
    }

    static func requestedExpiry(_ text: String?) throws(OAuthError) -> Int {
        guard let text, !text.isEmpty else { return backchannelExpiry }
        guard let seconds = Int(text), seconds > 0 else { throw .invalidRequest("requested_expiry must be a positive whole number of seconds") }
        return min(max(seconds, backchannelExpiryRange.lowerBound), backchannelExpiryRange.upperBound)
    }

    /// `grant_type=urn:openid:params:grant-type:ciba`: one poll (PollingRules); an approved
    /// request gives its tokens once, with the signed approval in the ID token.
    func redeemBackchannel(authReqId: String?, client: OIDCClient, address: String) async throws(OAuthError) -> TokenResponse {
        guard let id = authReqId, !id.isEmpty, id.utf8.count <= 256 else { throw .invalidRequest("auth_req_id is missing") }
        guard client.ciba != nil else { throw .unauthorizedClient("this client is not registered for backchannel authentication") }
        let now = self.now
        guard let (request, verdict) = try await stored({ try await $0.pollBackchannelRequest(id: id, clientId: client.id, now: now) })
        else { throw .invalidGrant("the auth_req_id is unknown (or was issued to another client)") }
        switch verdict {
        case .pending: throw .authorizationPending
        case .slowDown: throw .slowDown(request.interval)
        case .expired: throw .expiredToken
        case .used: throw .invalidGrant("the answer to this request was handed over already")
        case .denied:
            await audit.record("ciba_denied_redeemed", userId: request.userId, mpinId: request.mpinId, address: address, "client \(client.id)")
            throw .accessDenied
        case .issue:
            // The approval was written by this service; one that does not read back is refused,
            // never turned into tokens without their evidence.
            guard let userId = request.userId, let mpinId = request.mpinId, let approval = request.approval,
                let claim = try? JSONDecoder().decode(ApprovalClaim.self, from: Data(approval.utf8))
            else { throw .serverError("the approved request lacks its approval") }
            return try await issueAnsweredGrant(
                root: Tokens.hash("ciba\n" + request.id), client: client, userId: userId, mpinId: mpinId, scope: request.scope,
                authTime: request.answered ?? now, address: address, approval: claim)
        }
    }
}
