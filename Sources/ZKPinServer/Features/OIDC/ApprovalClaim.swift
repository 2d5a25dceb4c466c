/// The `approval` claim of a CIBA grant's ID token: what the person approved and their
/// designated-verifier signature on it (docs/api.md, "Approvals"), so that the site can keep
/// it as evidence and have it verified again (`POST /oauth/approval/verify`).
struct ApprovalClaim: Codable, Sendable, Equatable {
    /// The request approved, and what it asked: with the client's id and `time` these are the
    /// whole signed text, so the claim is evidence on its own (a changed field no longer
    /// matches `digest`).
    var auth_req_id: String
    var binding_message: String
    /// RFC 9396 details exactly as the site sent them (a JSON array, as text), if any.
    var authorization_details: String?
    /// Lower-case hex SHA-256 of the signed serialisation (docs/api.md).
    var digest: String
    /// The signature's time (Unix seconds), part of the serialisation and of the challenge.
    var time: Int
    /// The signing identity (hex) and its DVS public key Pa (hex, G2).
    var mpin_id: String
    var Pa: String
    /// The signature (hex G1 points).
    var U: String
    var V: String
}

extension ApprovalClaim {
    /// The claim with its hex fields in lower case, for comparison with the stored record.
    var normalised: ApprovalClaim {
        var c = self
        c.digest = digest.lowercased(); c.mpin_id = mpin_id.lowercased(); c.Pa = Pa.lowercased()
        c.U = U.lowercased(); c.V = V.lowercased()
        return c
    }
}
