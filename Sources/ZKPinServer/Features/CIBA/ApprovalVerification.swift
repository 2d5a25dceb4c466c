import Foundation

/// The form fields of `POST /oauth/approval/verify`.
struct ApprovalVerifyParameters: Decodable, Sendable {
    var client_id: String?
    var client_secret: String?
    /// The ID token's `approval` claim as JSON, as the site stored it.
    var approval: String?
}

struct ApprovalVerifyResponse: Codable, Sendable, Equatable {
    var valid: Bool
}

extension OIDCProvider {
    /// `POST /oauth/approval/verify`: a site that kept an approval as evidence has its
    /// signature verified again, later (only this service holds the server secret a DVS
    /// signature is verified with). It answers whether the claim is one this service issued
    /// to this client (compared with the stored record first, so that no claim built by the
    /// caller is ever verified: the endpoint is not a PIN oracle), its `digest` SHA-256 of the
    /// text its fields and this client make (docs/api.md), and (t, U, V) the identity's
    /// signature on it. No PIN attempt is counted: this is stored evidence, not a sign-in.
    /// `approvals` verifies again (it holds the server secret).
    func verifyApproval(_ p: ApprovalVerifyParameters, basic: BasicCredentials?, address: String, approvals: ApprovalService)
        async throws(OAuthError) -> ApprovalVerifyResponse
    {
        let client = try await authenticateClient(id: p.client_id, secret: p.client_secret, basic: basic)
        guard client.ciba != nil else { throw .unauthorizedClient("this client is not registered for approvals (admin clients add --ciba)") }
        guard let text = p.approval, !text.isEmpty, text.utf8.count <= 8192,
            let claim = try? JSONDecoder().decode(ApprovalClaim.self, from: Data(text.utf8))
        else { throw .invalidRequest("approval must be the ID token's approval claim, as JSON") }
        let valid: Bool
        do { valid = try await approvals.verifies(claim, clientId: client.id) } catch { throw .temporarilyUnavailable }
        await audit.record("ciba_approval_verify", address: address, "client \(client.id): \(valid ? "valid" : "not valid")")
        return ApprovalVerifyResponse(valid: valid)
    }
}
