import Foundation

/// The form fields of `POST /oauth/device_authorization` (RFC 8628 section 3.1).
struct DeviceAuthorizationParameters: Decodable, Sendable {
    var client_id: String?
    var client_secret: String?
    var scope: String?
}

/// RFC 8628 section 3.2.
struct DeviceAuthorizationResponse: Codable, Sendable, Equatable {
    var device_code: String
    var user_code: String
    var verification_uri: String
    var verification_uri_complete: String
    var expires_in: Int
    var interval: Int
}

/// The code a person types: 8 letters of 20 consonants (RFC 8628 section 6.1: no vowels, so no
/// words; case and dashes do not matter), about 34 bits, shown as `BCDF-GHJK`. Guessing is
/// bounded by the per-address limit on wrong codes.
enum UserCode {
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    static let length = 8

    static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The typed code in its stored form (upper case, no dash or space), nil when it cannot be one.
    static func canonical(_ typed: String) -> String? {
        let letters = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == length, letters.allSatisfy(alphabet.contains) else { return nil }
        return letters
    }

    static func display(_ canonical: String) -> String { String(canonical.prefix(4)) + "-" + String(canonical.dropFirst(4)) }

    static func hash(_ canonical: String) -> String { Tokens.hash("user-code\n" + canonical) }
}

extension OIDCProvider {
    static let deviceCodeTTL = 600
    static let deviceInterval = 5
    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

    /// `POST /oauth/device_authorization`: a device (registered with `--device`) asks to sign
    /// someone in; it shows the user code and the verification URI, then polls `/oauth/token`.
    func deviceAuthorization(_ p: DeviceAuthorizationParameters, basic: BasicCredentials?, address: String) async throws(OAuthError)
        -> DeviceAuthorizationResponse
    {
        let client = try await authenticateClient(id: p.client_id, secret: p.client_secret, basic: basic)
        guard client.deviceGrant else {
            throw .unauthorizedClient("this client is not registered for the device grant (admin clients add --device)")
        }
        let scope = try Self.answeredGrantScope(p.scope)
        let deviceCode = Tokens.fresh()
        let userCode = UserCode.fresh()
        let now = self.now
        let stored = DeviceCode(
            hash: Tokens.hash(deviceCode), userCodeHash: UserCode.hash(userCode), clientId: client.id, scope: scope, created: now,
            expires: now + Self.deviceCodeTTL, interval: Self.deviceInterval)
        _ = try await self.stored { try await $0.insertDeviceCode(stored) }
        await audit.record("device_authorization", address: address, "client \(client.id)")
        let shown = UserCode.display(userCode)
        return DeviceAuthorizationResponse(
            device_code: deviceCode, user_code: shown, verification_uri: issuer + "/device",
            verification_uri_complete: issuer + "/device?user_code=" + shown, expires_in: Self.deviceCodeTTL,
            interval: Self.deviceInterval)
    }

    /// The live, unanswered request of a typed user code and its client. Every miss counts
    /// towards the address's limit on wrong user codes, checked first (429 once used up).
    func pendingDevice(userCode typed: String, address: String) async throws(OAuthError) -> (code: DeviceCode, client: OIDCClient)? {
        let key = "user-code:" + address
        try await checkFailures(key, limits.wrongUserCodesPerAddress, address: address)
        let now = self.now
        if let canonical = UserCode.canonical(typed),
            let code = try await stored({ try await $0.pendingDeviceCode(userCodeHash: UserCode.hash(canonical), now: now) }),
            let client = try await stored({ try await $0.oidcClient(id: code.clientId) })
        {
            return (code, client)
        }
        try await countFailure(key, limits.wrongUserCodesPerAddress)
        await audit.record("device_code_refused", address: address, "a wrong or expired user code")
        return nil
    }

    /// The signed-in person's answer to a device's request; nil when it was answered already
    /// or expired meanwhile. A miss counts towards the address's wrong user codes as at
    /// `/device` (a signed-in person must not guess codes here without limit either).
    func answerDevice(userCode: String, allow: Bool, session: WebSession, address: String) async throws(OAuthError) -> DeviceCode? {
        let key = "user-code:" + address
        try await checkFailures(key, limits.wrongUserCodesPerAddress, address: address)
        guard let canonical = UserCode.canonical(userCode) else {
            try await countFailure(key, limits.wrongUserCodesPerAddress)
            return nil
        }
        let now = self.now
        let answered = try await stored {
            try await $0.answerDeviceCode(
                userCodeHash: UserCode.hash(canonical), allow: allow, userId: session.userId, mpinId: session.mpinId,
                authTime: session.created, now: now)
        }
        if let answered {
            await audit.record(
                allow ? "device_allowed" : "device_denied", userId: session.userId, mpinId: session.mpinId, address: address,
                "client \(answered.clientId)")
        } else {
            try await countFailure(key, limits.wrongUserCodesPerAddress)
            await audit.record("device_code_refused", userId: session.userId, address: address, "a wrong or expired user code at confirm")
        }
        return answered
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: one poll (PollingRules, as
    /// CIBA's); an allowed request gives its tokens once.
    func redeemDeviceCode(_ deviceCode: String?, client: OIDCClient, address: String) async throws(OAuthError) -> TokenResponse {
        guard let deviceCode, !deviceCode.isEmpty, deviceCode.utf8.count <= 256 else { throw .invalidRequest("device_code is missing") }
        let hash = Tokens.hash(deviceCode)
        let now = self.now
        guard let (code, verdict) = try await stored({ try await $0.pollDeviceCode(hash: hash, clientId: client.id, now: now) }) else {
            throw .invalidGrant("the device_code is unknown (or was issued to another client)")
        }
        switch verdict {
        case .pending: throw .authorizationPending
        case .slowDown: throw .slowDown(code.interval)
        case .expired: throw .expiredToken
        case .used: throw .invalidGrant("the answer to this device code was handed over already")
        case .denied: throw .accessDenied
        case .issue:
            guard let userId = code.userId, let mpinId = code.mpinId else { throw .serverError("the allowed device code lacks its person") }
            return try await issueAnsweredGrant(
                root: Tokens.hash("device\n" + hash), client: client, userId: userId, mpinId: mpinId, scope: code.scope,
                authTime: code.answered ?? now, address: address, approval: nil)
        }
    }
}
