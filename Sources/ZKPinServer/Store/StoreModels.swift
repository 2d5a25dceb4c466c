// The rows of the store. Times are Unix seconds (Int) so both SQLite and PostgreSQL keep them
// as plain integers; one-time tokens appear only as SHA-256 hashes (hex).

/// The state of an identity that finished activation.
public enum IdentityState: String, Sendable, Codable, CaseIterable {
    case active, blocked, revoked
}

public struct Identity: Sendable, Equatable {
    public var mpinId: String
    public var userId: String
    public var device: String
    public var state: IdentityState
    /// Genuine wrong PINs since the last success.
    public var failedAttempts: Int
    public var created: Int
    public var lastLogin: Int?

    public init(
        mpinId: String, userId: String, device: String, state: IdentityState = .active,
        failedAttempts: Int = 0, created: Int, lastLogin: Int? = nil
    ) {
        self.mpinId = mpinId; self.userId = userId; self.device = device; self.state = state
        self.failedAttempts = failedAttempts; self.created = created; self.lastLogin = lastLogin
    }
}

/// A registration waiting for (or just past) activation. It stays after activation until it
/// expires, so a client that crashed between the two shares can fetch share 1 again.
public struct PendingRegistration: Sendable, Equatable {
    public var mpinId: String
    public var userId: String
    public var device: String
    public var regOTTHash: String
    /// Keyed hash of the confirmation code (the server never keeps regOTT itself).
    public var codeHash: String
    public var created: Int
    public var expires: Int
    /// The requesting client's address, shown on the activation page.
    public var address: String
    public var activated: Int?

    public init(
        mpinId: String, userId: String, device: String, regOTTHash: String, codeHash: String,
        created: Int, expires: Int, address: String, activated: Int? = nil
    ) {
        self.mpinId = mpinId; self.userId = userId; self.device = device; self.regOTTHash = regOTTHash
        self.codeHash = codeHash
        self.created = created; self.expires = expires; self.address = address; self.activated = activated
    }
}

/// What pass 1 recorded: single use, short-lived.
public struct Challenge: Sendable, Equatable {
    public var id: String
    public var mpinId: String
    public var u: [UInt8]
    public var ut: [UInt8]?
    public var y: [UInt8]
    /// The UTC day for time permits, 0 without permits.
    public var date: Int
    public var created: Int
    public var expires: Int

    public init(id: String, mpinId: String, u: [UInt8], ut: [UInt8]?, y: [UInt8], date: Int, created: Int, expires: Int) {
        self.id = id; self.mpinId = mpinId; self.u = u; self.ut = ut; self.y = y; self.date = date
        self.created = created; self.expires = expires
    }
}

/// One access code and the page (webOTT) it belongs to.
public struct AccessSession: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        /// Shown, not presented by a client yet.
        case new
        /// A client presented the code.
        case wid
        /// `/rps/authenticate` refused a genuine wrong PIN; the code can be presented again.
        case wrongPIN = "wrong_pin"
        /// Pass 2 passed for `userId`.
        case user
        /// `/rps/authenticate` succeeded.
        case authenticate
        /// The page exchanged it for a session.
        case used
        /// The login with this code blocked its identity (the third genuine wrong PIN, or an
        /// identity blocked already): the person registers again.
        case blocked
        /// The login with this code was refused: no genuine token, or a revoked identity.
        case refused
        /// The person denied the code's push sign-in on their device.
        case denied
    }
    public var webOTTHash: String
    public var code: String
    public var status: Status
    public var mpinId: String?
    public var userId: String?
    /// Hash of the authOTT that signed the page in.
    public var authOTTHash: String?
    /// The page's poll has seen `authenticate`.
    public var takenUp: Bool
    public var created: Int
    public var expires: Int
    public var authenticatedAt: Int?
    /// The site the code signs in to, when an OpenID Connect client's page (authorize, device)
    /// drew it: `/rps/codeStatus` names it to the person's client, on any instance.
    public var site: String?

    public init(
        webOTTHash: String, code: String, status: Status = .new, mpinId: String? = nil,
        userId: String? = nil, authOTTHash: String? = nil, takenUp: Bool = false,
        created: Int, expires: Int, authenticatedAt: Int? = nil, site: String? = nil
    ) {
        self.webOTTHash = webOTTHash; self.code = code; self.status = status; self.mpinId = mpinId
        self.userId = userId; self.authOTTHash = authOTTHash; self.takenUp = takenUp
        self.created = created; self.expires = expires; self.authenticatedAt = authenticatedAt; self.site = site
    }
}

/// The verdict of pass 2, waiting for `/rps/authenticate`.
public struct AuthToken: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        case success
        case wrongPIN = "wrong_pin"
        case invalidToken = "invalid_token"
        case blocked
    }
    public var hash: String
    public var mpinId: String
    public var userId: String
    public var outcome: Outcome
    public var attemptsLeft: Int
    /// The access code of the login, nil for "0".
    public var accessCode: String?
    public var expires: Int

    public init(
        hash: String, mpinId: String, userId: String, outcome: Outcome, attemptsLeft: Int,
        accessCode: String?, expires: Int
    ) {
        self.hash = hash; self.mpinId = mpinId; self.userId = userId; self.outcome = outcome
        self.attemptsLeft = attemptsLeft; self.accessCode = accessCode; self.expires = expires
    }
}

/// A signed-in browser (cookie hash).
public struct WebSession: Sendable, Equatable {
    public var hash: String
    public var mpinId: String
    public var userId: String
    public var created: Int
    public var expires: Int

    public init(hash: String, mpinId: String, userId: String, created: Int, expires: Int) {
        self.hash = hash; self.mpinId = mpinId; self.userId = userId; self.created = created; self.expires = expires
    }
}

public struct AuditEvent: Sendable, Equatable {
    public var time: Int
    /// e.g. "register", "activate", "login", "wrong_pin", "invalid_token", "block", "revoke".
    public var kind: String
    public var userId: String?
    public var mpinId: String?
    public var address: String?
    public var detail: String

    public init(time: Int, kind: String, userId: String? = nil, mpinId: String? = nil, address: String? = nil, detail: String = "") {
        self.time = time; self.kind = kind; self.userId = userId; self.mpinId = mpinId
        self.address = address; self.detail = detail
    }
}

/// The result of reserving a login attempt.
public enum AttemptReservation: Sendable, Equatable {
    /// Reserved; settle it exactly once.
    case reserved
    case unknown
    case blocked
    case revoked
    /// All remaining attempts are reserved by logins in flight; try again shortly.
    case busy
}

/// How a reserved attempt ended.
public enum AttemptSettlement: Sendable, Equatable {
    /// Verified: reset the count, record the login time.
    case success(now: Int)
    /// A genuine wrong PIN (PIN error non-zero): count it, block at `maxAttempts`.
    case wrongPIN(maxAttempts: Int)
    /// No pairing verdict that counts (invalid token, decode failure, error).
    case neutral
}

/// The identity after settling.
public struct AttemptResult: Sendable, Equatable {
    public var failedAttempts: Int
    public var state: IdentityState
    public init(failedAttempts: Int, state: IdentityState) { self.failedAttempts = failedAttempts; self.state = state }
}

/// One rate-limit event to count in the same transaction as the step it guards.
public struct CountedEvent: Sendable, Equatable {
    public var key: String
    public var limit: Int
    /// Seconds; a window that has run out restarts at this event.
    public var window: Int
    public init(key: String, limit: Int, window: Int) { self.key = key; self.limit = limit; self.window = window }
}

/// What `Store.admitPass1` did.
public enum Pass1Admission: Sendable, Equatable {
    /// An event went over its limit: the events are counted, nothing else changed.
    case limited
    /// Within the limits; the identity's state (`active`: the challenge is stored) or nil
    /// (no such identity, nothing stored).
    case identity(IdentityState?)
}

/// What `Store.startLogin` found.
public enum LoginStart: Sendable, Equatable {
    /// The challenge was consumed and an attempt reserved; the identity as it was before.
    case started(Challenge, Identity)
    /// No live challenge of that id for that identity: nothing changed.
    case noChallenge
    /// The challenge was consumed but no attempt reserved (`reservation` says why).
    case refused(AttemptReservation)
}

extension AuthToken {
    /// The token as `Store.finishLogin` stores it after settling: attempts left from the
    /// settled count, and a wrong PIN that blocked the identity answered as `blocked`.
    public func settled(_ result: AttemptResult, maxAttempts: Int) -> AuthToken {
        var token = self
        token.attemptsLeft = max(0, maxAttempts - result.failedAttempts)
        if outcome == .wrongPIN, result.state == .blocked { token.outcome = .blocked }
        return token
    }
}
