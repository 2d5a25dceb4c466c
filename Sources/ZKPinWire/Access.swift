// Browser login by access code (the HTTP API, "Browser login by access code": openapi.yaml and docs/api.md).

/// `POST /rps/getAccessNumber`.
public struct AccessNumberResponse: Codable, Sendable, Equatable {
    /// Seven digits: six random and a check digit (`AccessCode`).
    public var accessNumber: String
    /// The page's one-time token for `/rps/access` and `/session`, hex.
    public var webOTT: String
    public var ttlSeconds: Int
    /// `<public-url>#<accessNumber>`: the QR code's payload.
    public var qrUrl: String

    public init(accessNumber: String, webOTT: String, ttlSeconds: Int, qrUrl: String) {
        self.accessNumber = accessNumber; self.webOTT = webOTT; self.ttlSeconds = ttlSeconds; self.qrUrl = qrUrl
    }
}

/// `POST /rps/access`.
public struct AccessRequest: Codable, Sendable, Equatable {
    public var webOTT: String
    public init(webOTT: String) { self.webOTT = webOTT }
}

/// What the page of an access code sees.
public enum AccessStatus: String, Codable, Sendable, CaseIterable {
    /// Nobody presented the code yet.
    case new
    /// A client presented the code (codeStatus or pass 2).
    case wid
    /// Pass 2 succeeded for `userId`.
    case user
    /// `/rps/authenticate` succeeded; `authOTT` is set.
    case authenticate
    case expired
    /// This project's addition to the M-Pin statuses: `/rps/authenticate` refused a genuine
    /// wrong PIN for a login bound to this code. The code stays usable until it expires (the
    /// next pass 2 with it turns the status back to `wid`).
    case wrongPIN = "wrong_pin"
    /// The login with this code blocked its identity (too many wrong PINs): register again.
    case blocked
    /// The login with this code was refused: the client holds no genuine token, or its
    /// identity is revoked.
    case refused
    /// This project's addition: the person denied this code's push sign-in on their device
    /// (a number that was not the page's, or "Not me"). The page asks for a new code.
    case denied
}

/// The answer to `POST /rps/access`.
public struct AccessResponse: Codable, Sendable, Equatable {
    public var status: AccessStatus
    public var userId: String?
    public var authOTT: String?
    /// With `wrong_pin`: the wrong PINs the identity may still make before it is blocked, the
    /// number the client shows too.
    public var attemptsLeft: Int?
    public init(status: AccessStatus, userId: String? = nil, authOTT: String? = nil, attemptsLeft: Int? = nil) {
        self.status = status; self.userId = userId; self.authOTT = authOTT; self.attemptsLeft = attemptsLeft
    }
}

/// `POST /rps/codeStatus`: a client marks the code as scanned.
public struct CodeStatusRequest: Codable, Sendable, Equatable {
    /// "wid".
    public var status: String
    /// The access code.
    public var wid: String
    public init(status: String = "wid", wid: String) { self.status = status; self.wid = wid }
}

/// The answer to `POST /rps/codeStatus`: for an OpenID Connect sign-in, the display name of the
/// site (the client) the person signs in to; absent for the service's own login page.
public struct CodeStatusResponse: Codable, Sendable, Equatable {
    public var clientName: String?
    public init(clientName: String? = nil) { self.clientName = clientName }
}

/// `POST /session` as JSON (a form with the same fields works too).
public struct SessionRequest: Codable, Sendable, Equatable {
    public var webOTT: String
    public var authOTT: String
    public init(webOTT: String, authOTT: String) { self.webOTT = webOTT; self.authOTT = authOTT }
}
