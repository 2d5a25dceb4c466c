import ZKPinWire

/// The relying party's HMAC key (`rps.key`, 0600) and everything signed with it: activation
/// links, confirmation codes at rest, and the page token that `/session` checks.
struct LinkSigner: Sendable {
    let key: [UInt8]
    let publicURL: String

    func confirmationCodeHash(_ code: String) -> String {
        Tokens.hmac(key: key, "confirmation\n" + ConfirmationCode.normalize(code))
    }

    func activationSignature(mpinId: String, expires: Int) -> String {
        Tokens.hmac(key: key, "activate\n\(mpinId)\n\(expires)")
    }

    func activationLink(mpinId: String, expires: Int) -> String {
        "\(publicURL)/mpinActivate?i=\(mpinId)&e=\(expires)&s=\(activationSignature(mpinId: mpinId, expires: expires))"
    }

    /// The holder proof of an identity (`Pass1Request.holder`): given only with a verified
    /// login, so only the token's holder has it; derived, so nothing is stored.
    func holderProof(mpinId: String) -> String {
        Tokens.hmac(key: key, "holder\n\(mpinId)")
    }

    /// The token the page posts to `/session`: bound to webOTT and to the login that signed it
    /// in, so the server never stores it.
    func pageToken(webOTT: String, authOTTHash: String) -> String {
        Tokens.hmac(key: key, "page\n\(webOTT)\n\(authOTTHash)")
    }
}
