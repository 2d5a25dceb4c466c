// Registration (the HTTP API, "Registration": openapi.yaml and docs/api.md).

/// `PUT /rps/user`.
public struct RegisterRequest: Codable, Sendable, Equatable {
    /// An e-mail address (at most 254 characters, no CR or LF).
    public var userId: String
    public var deviceName: String?
    /// 0 or 1.
    public var mobile: Int?
    /// A signing-capable identity's DVS public key Pa (hex, G2; mpin-crypto.md 4.1): the
    /// server then mints the identity ID' = ID ‖ Pa, for which both authorities issue shares.
    /// Left out (Apache Milagro's clients), the identity is ID alone, as in M-Pin.
    public var pa: String?

    public init(userId: String, deviceName: String? = nil, mobile: Int? = nil, pa: String? = nil) {
        self.userId = userId; self.deviceName = deviceName; self.mobile = mobile; self.pa = pa
    }
}

/// The answer to `PUT /rps/user` (and to `PUT /rps/user/<mpinId>`).
public struct RegisterResponse: Codable, Sendable, Equatable {
    /// Hex of the identity JSON (`MPinIdentity`).
    public var mpinId: String
    /// Hex one-time token; the client keeps it to fetch its share and derives the
    /// confirmation code from it (`ConfirmationCode`).
    public var regOTT: String
    /// ISO 8601 (UTC) time the pending registration expires.
    public var expireTime: String
    /// ISO 8601 (UTC) server time.
    public var nowTime: String
    public var active: Bool

    public init(mpinId: String, regOTT: String, expireTime: String, nowTime: String, active: Bool = false) {
        self.mpinId = mpinId; self.regOTT = regOTT; self.expireTime = expireTime
        self.nowTime = nowTime; self.active = active
    }
}

/// `PUT /rps/user/<mpinId>`: re-send the activation mail.
public struct ResendRequest: Codable, Sendable, Equatable {
    public var regOTT: String
    public init(regOTT: String) { self.regOTT = regOTT }
}

/// `POST /mpinActivate?i=&e=&s=` as JSON (a form with the field `code` works too).
public struct ActivateRequest: Codable, Sendable, Equatable {
    /// The confirmation code, with or without the dash, any case.
    public var code: String
    public init(code: String) { self.code = code }
}

/// `GET /rps/signature/<mpinId>?regOTT=` once activated.
public struct SignatureResponse: Codable, Sendable, Equatable {
    /// Share 1 of the client secret: G1 point, hex.
    public var clientSecretShare: String
    /// The signed query string to send to `<dta2URL>/clientSecret?<params>`.
    public var params: String
    /// The holder proof (docs/limits.md "A shared address"), given already here: this request
    /// is authenticated by the regOTT, so the first login is not counted with strangers on
    /// the new owner's address either. Absent from servers that predate it.
    public var holder: String?
    public init(clientSecretShare: String, params: String, holder: String? = nil) {
        self.clientSecretShare = clientSecretShare; self.params = params; self.holder = holder
    }
}

/// `GET <dta2URL>/clientSecret?<params>`: share 2.
public struct ClientSecretResponse: Codable, Sendable, Equatable {
    /// G1 point, hex.
    public var clientSecret: String
    public init(clientSecret: String) { self.clientSecret = clientSecret }
}

/// `GET /rps/timePermit/<mpinId>` (with `params`) and `GET <dta2URL>/timePermit?<params>`
/// (without).
public struct TimePermitResponse: Codable, Sendable, Equatable {
    /// UTC day number (days since 1970-01-01).
    public var date: Int
    /// G1 point, hex.
    public var timePermit: String
    /// The signed query for D-TA 2's share (relying party only).
    public var params: String?
    public init(date: Int, timePermit: String, params: String? = nil) {
        self.date = date; self.timePermit = timePermit; self.params = params
    }
}

/// `GET <dta2URL>/serverSecret?<signed query>`: D-TA 2's share of SS.
public struct ServerSecretResponse: Codable, Sendable, Equatable {
    /// G2 point, hex.
    public var serverSecret: String
    public init(serverSecret: String) { self.serverSecret = serverSecret }
}
