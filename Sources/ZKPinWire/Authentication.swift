// Authentication (the HTTP API, "Authentication": openapi.yaml and docs/api.md). Field names follow M-Pin: `mpin_id`,
// `U`, `UT`, `V`, `WID`, `OTP`.

/// `POST /rps/pass1`.
public struct Pass1Request: Codable, Sendable, Equatable {
    public var mpinId: String
    /// G1 point, hex.
    public var u: String
    /// G1 point, hex; required when the server uses time permits, refused when it does not.
    public var ut: String?
    /// Always 1.
    public var pass: Int
    /// The access code of the page this login is for (optional, a ZKPin addition; other M-Pin
    /// clients leave it out): when pass 1 refuses the identity as blocked or revoked, that page
    /// says so too instead of waiting.
    public var wid: String?
    /// The holder proof that the server gave this identity's client with its last successful
    /// login (`AuthenticateResponse.holder`; a ZKPin addition, optional): pass 1 is then counted
    /// in a budget of the identity that only its holder can spend, not in the counts of the
    /// client address, which a stranger behind the same address shares (docs/limits.md).
    public var holder: String?

    public init(mpinId: String, u: String, ut: String? = nil, pass: Int = 1, wid: String? = nil, holder: String? = nil) {
        self.mpinId = mpinId; self.u = u; self.ut = ut; self.pass = pass; self.wid = wid; self.holder = holder
    }

    enum CodingKeys: String, CodingKey {
        case mpinId = "mpin_id"
        case u = "U"
        case ut = "UT"
        case pass
        case wid = "WID"
        case holder
    }
}

/// The answer to pass 1.
public struct Pass1Response: Codable, Sendable, Equatable {
    /// The server's random scalar, hex.
    public var y: String
    /// Opaque id of the single-use, 15 s pass-1 challenge; send it back in pass 2.
    public var challenge: String
    public var pass: Int

    public init(y: String, challenge: String, pass: Int = 1) {
        self.y = y; self.challenge = challenge; self.pass = pass
    }
}

/// `POST /rps/pass2`.
public struct Pass2Request: Codable, Sendable, Equatable {
    public var mpinId: String
    /// G1 point, hex.
    public var v: String
    /// The access code, or "0" when there is none.
    public var wid: String
    /// The pass-1 challenge id (required: the server consumes only the challenge named here).
    public var challenge: String?
    /// `true` asks for a one-time code for a password-only system instead of a login (docs/api.md,
    /// "One-time codes"): the answer is `OTPResponse` after a verified proof, or the errors of
    /// `/rps/authenticate`. Needs `WID` "0".
    public var otp: Bool?
    /// With `otp`: the service the code is for (a client registered with `--otp`, by name or
    /// id); may be left out when the server has exactly one.
    public var service: String?
    /// Always 2.
    public var pass: Int
    /// ZKPin addition: `true` asks the server to finish the login in this request, answering as
    /// `/rps/authenticate` would (`AuthenticateResponse`, or its error bodies) and issuing no
    /// authOTT. Absent or false: the M-Pin answer (`Pass2Response`), then `/rps/authenticate`.
    public var complete: Bool?

    public init(
        mpinId: String, v: String, wid: String, challenge: String? = nil, otp: Bool? = false, pass: Int = 2, complete: Bool? = nil,
        service: String? = nil
    ) {
        self.mpinId = mpinId; self.v = v; self.wid = wid; self.challenge = challenge
        self.otp = otp; self.pass = pass; self.complete = complete; self.service = service
    }

    enum CodingKeys: String, CodingKey {
        case mpinId = "mpin_id"
        case v = "V"
        case wid = "WID"
        case challenge
        case otp = "OTP"
        case pass
        case complete
        case service
    }
}

/// The answer to pass 2.
public struct Pass2Response: Codable, Sendable, Equatable {
    /// One-time token for `/rps/authenticate`, hex.
    public var authOTT: String
    public var pass: Int
    public init(authOTT: String, pass: Int = 2) { self.authOTT = authOTT; self.pass = pass }
}

/// `POST /rps/authenticate`.
public struct AuthenticateRequest: Codable, Sendable, Equatable {
    public struct MPinResponse: Codable, Sendable, Equatable {
        public var authOTT: String
        public init(authOTT: String) { self.authOTT = authOTT }
    }
    public var mpinResponse: MPinResponse

    public init(authOTT: String) { self.mpinResponse = MPinResponse(authOTT: authOTT) }
}

/// 200 from `/rps/authenticate`. (Failures are `ErrorBody`, e.g. 401 `wrong_pin` with
/// `attemptsLeft`.)
public struct AuthenticateResponse: Codable, Sendable, Equatable {
    public var userId: String
    /// ZKPin addition: the identity's holder proof, for the `holder` of its later pass 1s (only
    /// a verified login gets it; other M-Pin clients ignore it).
    public var holder: String?
    public init(userId: String, holder: String? = nil) { self.userId = userId; self.holder = holder }
}

/// 200 from `/rps/pass2` with `OTP: true`: a one-time code for a password-only system.
public struct OTPResponse: Codable, Sendable, Equatable {
    /// The code: 6 to 8 decimal digits (the server's setting), single use.
    public var otp: String
    /// Seconds it stays valid from now.
    public var expiresIn: Int
    /// When it stops being valid (Unix seconds, the server's clock).
    public var expires: Int
    /// The name of the service it is for (checks by other services fail).
    public var service: String
    /// The person it is for: the user name to type with it.
    public var userId: String
    public var pass: Int

    public init(otp: String, expiresIn: Int, expires: Int, service: String, userId: String, pass: Int = 2) {
        self.otp = otp; self.expiresIn = expiresIn; self.expires = expires; self.service = service
        self.userId = userId; self.pass = pass
    }
}

/// `POST /otp/verify` (a service registered with `--otp`, client credentials as at
/// `/oauth/token`: HTTP Basic, or `client_id` and `client_secret` here).
public struct OTPVerifyRequest: Codable, Sendable, Equatable {
    /// The person's e-mail address (the user name typed on the password-only system).
    public var user: String
    public var otp: String
    public var clientId: String?
    public var clientSecret: String?

    public init(user: String, otp: String, clientId: String? = nil, clientSecret: String? = nil) {
        self.user = user; self.otp = otp; self.clientId = clientId; self.clientSecret = clientSecret
    }

    enum CodingKeys: String, CodingKey {
        case user, otp
        case clientId = "client_id"
        case clientSecret = "client_secret"
    }
}

/// The answer of `/otp/verify`: true once for a live code of this person for this service.
public struct OTPVerifyResponse: Codable, Sendable, Equatable {
    public var valid: Bool
    public init(valid: Bool) { self.valid = valid }
}
