import ZKPinWire

/// Signed queries from the relying party to D-TA 2: HMAC-SHA256 with the shared key over a
/// canonical string with newline delimiters, expiring within `maxLifetime` seconds.
public struct DTA2Signer: Sendable {
    public static let maxLifetime = 60
    let key: [UInt8]

    public init(key: [UInt8]) { self.key = key }

    static func canonical(kind: String, hashedID: String?, date: Int?, expires: Int) -> String {
        var parts = [kind]
        if let hashedID { parts.append(hashedID) }
        if let date { parts.append(String(date)) }
        parts.append(String(expires))
        return parts.joined(separator: "\n")
    }

    /// The query string for `clientSecret` / `timePermit` or `serverSecret`. `hashedID` is hex
    /// of HASH_ID(ID): D-TA 2 gets only the hash, never the mpinId (it contains the e-mail).
    public func query(kind: String, hashedID: String?, date: Int?, now: Int) -> String {
        let expires = now + Self.maxLifetime
        let sig = Tokens.hmac(key: key, Self.canonical(kind: kind, hashedID: hashedID, date: date, expires: expires))
        var items: [String] = []
        if let hashedID { items.append("hash_mpin_id=\(hashedID)") }
        if let date { items.append("date=\(date)") }
        items.append("expires=\(expires)")
        items.append("signature=\(sig)")
        return items.joined(separator: "&")
    }

    /// Checks the signature (constant time) and that expiry is in (now, now + maxLifetime].
    public func verify(kind: String, hashedID: String?, date: Int?, expires: Int, signature: String, now: Int) -> Bool {
        guard expires > now, expires <= now + Self.maxLifetime else { return false }
        let expected = Tokens.hmac(key: key, Self.canonical(kind: kind, hashedID: hashedID, date: date, expires: expires))
        return Tokens.equal(expected, signature.lowercased())
    }
}
