import Foundation

// The mpinId is the hex of a JSON object {"issued", "userID", "mobile", "salt"}; the M-Pin ID
// that is hashed is that JSON text's bytes (the hex-decoded mpinId). Only the server mints
// them; a client decodes one to show it.

public struct MPinIdentity: Codable, Sendable, Equatable {
    /// ISO 8601 (UTC) time of issue.
    public var issued: String
    /// The e-mail address.
    public var userID: String
    /// 0 or 1.
    public var mobile: Int
    /// 16 random bytes, hex.
    public var salt: String

    public init(issued: String, userID: String, mobile: Int, salt: String) {
        self.issued = issued; self.userID = userID; self.mobile = mobile; self.salt = salt
    }

    /// The JSON text's bytes (keys sorted so the text is stable).
    package func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding four strings/ints cannot fail.
        return Array((try? encoder.encode(self)) ?? Data())
    }

    /// The mpinId: hex of `jsonBytes()`.
    public var mpinId: String { Hex.encode(jsonBytes()) }

    /// The identity and the DVS public key of a signing-capable mpinId, hex(ID ‖ Pa) with Pa of
    /// `publicKeyBytes` bytes; for a plain mpinId (the JSON alone) the key is nil. nil when the
    /// mpinId is neither.
    public static func parts(of mpinId: String, publicKeyBytes: Int) -> (identity: MPinIdentity, publicKey: [UInt8]?)? {
        guard let bytes = Hex.decode(mpinId) else { return nil }
        if let whole = try? JSONDecoder().decode(MPinIdentity.self, from: Data(bytes)) { return (whole, nil) }
        guard bytes.count > publicKeyBytes,
            let identity = try? JSONDecoder().decode(MPinIdentity.self, from: Data(bytes.dropLast(publicKeyBytes)))
        else { return nil }
        return (identity, Array(bytes.suffix(publicKeyBytes)))
    }

    /// Decodes an mpinId; nil when it is not hex of such a JSON object.
    public init?(mpinId: String) {
        guard let bytes = Hex.decode(mpinId),
            let value = try? JSONDecoder().decode(MPinIdentity.self, from: Data(bytes))
        else { return nil }
        self = value
    }
}

/// The states a client shows for an identity (the HTTP API, "Client states": openapi.yaml and docs/api.md), plus
/// `REVOKED`: the server refused the identity (403, revoked or unknown there), which the
/// client records so that it stops asking for a PIN that cannot help.
public enum UserState: String, Codable, Sendable, CaseIterable {
    case invalid = "INVALID"
    case startedRegistration = "STARTED_REGISTRATION"
    case activated = "ACTIVATED"
    case registered = "REGISTERED"
    case blocked = "BLOCKED"
    case revoked = "REVOKED"
}

/// `GET /status` of the relying party and of D-TA 2.
public struct ServerStatus: Codable, Sendable, Equatable {
    /// "ok".
    public var status: String
    /// "rps" (relying party, with D-TA 1 and possibly an in-process D-TA 2) or "dta2".
    public var role: String
    public var curve: String
    public var version: String
    /// The relying party's database: "ok", or "unavailable" during an outage (then `/ready`
    /// answers 503). Absent from D-TA 2, which has none.
    public var database: String?

    public init(status: String = "ok", role: String, curve: String, version: String) {
        self.status = status; self.role = role; self.curve = curve; self.version = version
    }
}

/// UTC day numbers, the `date` of time permits.
public enum UTCDay {
    /// Days since 1970-01-01 UTC for a Unix time in seconds.
    public static func number(unixSeconds: Int) -> Int {
        unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
    }
}
