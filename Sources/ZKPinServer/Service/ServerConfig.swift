import ZKPinProtocol

/// Everything the relying party needs to know at start. The App builds it from the serve
/// settings (`App/ServerConfig+Options.swift`), whose table (`App/Settings/ServeSettings.swift`)
/// holds the defaults and ranges of the values without one here.
public struct ServerConfig: Sendable {
    public var publicURL: String
    public var curve: CurveID
    public var usePermits: Bool
    public var maxAttempts: Int
    public var accessCodeTTL: Int
    public var serviceName: String
    /// A pending registration expires after this (seconds).
    public var registrationTTL: Int = 3600
    /// Share 1 of a client secret is served only this long after activation (seconds): enough
    /// for a client that crashed between the two shares, short enough that a logged regOTT is stale.
    public var shareWindow: Int = 600
    public var challengeTTL: Int = 15
    public var authTokenTTL: Int = 60
    public var sessionTTL: Int = 8 * 3600
    /// How long `/rps/authenticate` waits for the page to take the login up (seconds).
    public var takeUpWait: Double = 10
    /// A reserved attempt not settled in this time (a crash) stops counting.
    public var attemptHold: Int = 30
    /// The most pass-2 logins verified together (1: each alone, as before batch verification).
    public var maxVerificationBatch: Int
    /// Identities (per day, with time permits) whose hashed points and y·HID tables are kept
    /// between logins (`PreparedServerSecret`): about 2.1 KB each on BN254CX, 3.1 KB on BLS12-381.
    public var identityCacheEntries: Int
    /// How long a batch may wait for more logins while the server is under load (`LoginBatcher`).
    public var verificationWaitMilliseconds: Int
    /// Seconds a request body may take to arrive (`BodyLimitMiddleware`).
    public var bodyTimeout: Int
    /// The proxy address whose X-Forwarded-For is believed.
    public var trustedProxy: String?
    public var mailFrom: String
    /// Mail a person when wrong PINs block their identity (`--notify-user on`).
    public var notifyOnBlock: Bool
    /// "Not me" on a device also blocks every identity of the person until an operator
    /// unblocks them (`--not-me-blocks on`).
    public var notMeBlocks = false
    /// The session cookie's Domain (`--cookie-domain`), so that sites under it (behind a proxy
    /// that asks `/auth/verify`) see the sign-in; nil: the public URL's host only.
    public var cookieDomain: String?
    /// Hosts a sign-in may return to (`/?rd=URL`): those `--forward-auth` protects. Any other
    /// return address is ignored (no open redirect).
    public var returnHosts: Set<String> = []
    /// Paths of this server the sign-in page may return to (`rd=/admin/...`).
    public var returnPaths: Set<String> = []
    public var limits: Limits
    /// One-time codes (pass 2 with `OTP`, `/otp/verify`).
    public var otp: OTPSettings
    /// The data folder (the OpenID Connect provider keeps its signing key there); nil serves
    /// no OpenID Connect endpoints.
    public var dataDirectory: String?
    /// The client command the login page shows before `login 'URL#CODE'`.
    public var clientCommand: String
    /// The web client's folder (`WebFolder`); nil serves no `/js` and `/app`.
    public var webDirectory: String?

    public struct Limits: Sendable {
        /// Keyed by e-mail and address: a stranger's registrations for someone else's address
        /// use up only the stranger's own count (docs/limits.md).
        public var registrationsPerEmailAndAddress = RateLimiter.Rule(limit: 5, window: 3600)
        public var registrationsPerAddress: RateLimiter.Rule
        /// Pass 1 per client address, and per identity from one address (a stranger who knows an
        /// mpinId uses up only their own address's count).
        public var pass1PerAddress: RateLimiter.Rule
        public var pass1PerIdentityAndAddress: RateLimiter.Rule
        /// Pass 1 with the identity's holder proof, per identity (any address): the holder's
        /// own budget, counted instead of the two per-address limits above.
        public var pass1PerHolder = RateLimiter.Rule(limit: 30, window: 60)
        /// Approval signatures (`/rps/approvals`, `/rps/approvals/answer`) per client address,
        /// and per identity from one address: a stranger's junk signatures for someone's
        /// mpinId use up only the stranger's own counts, and each costs a pairing (`zkpin approve
        /// --wait` lists every 3 s: 20 a minute).
        public var approvalsPerAddress = RateLimiter.Rule(limit: 120, window: 60)
        public var approvalsPerIdentityAndAddress = RateLimiter.Rule(limit: 40, window: 60)
        /// `GET /rps/timePermit/<mpinId>` (it signs a D-TA 2 query) per identity and address.
        public var timePermitsPerIdentityAndAddress = RateLimiter.Rule(limit: 30, window: 600)
        /// Access codes (login page views, `POST /rps/getAccessNumber`) per client address.
        public var accessCodesPerAddress = RateLimiter.Rule(limit: 120, window: 60)
        public var wrongCodesPerAddress = RateLimiter.Rule(limit: 30, window: 60)
        public var wrongConfirmationsPerRegistration = RateLimiter.Rule(limit: 5, window: 900)
        public var invalidTokensPerIdentityAndAddress = RateLimiter.Rule(limit: 50, window: 600)
        /// Failed client authentications at the OAuth endpoints, and unknown bearer tokens at
        /// userinfo, per address: the secrets are 256-bit (no guessing), so this bounds load.
        public var failedClientAuthPerAddress = RateLimiter.Rule(limit: 30, window: 60)
        public var invalidBearersPerAddress = RateLimiter.Rule(limit: 60, window: 60)
        /// Wrong or expired user codes typed at `/device`, per address: a code has about 34
        /// bits and lives ten minutes, so 20 guesses a minute find one with odds of 1 in 10^8.
        public var wrongUserCodesPerAddress = RateLimiter.Rule(limit: 20, window: 60)
        /// Requests that may wait on one person's devices at once, of each kind (a site's
        /// approvals, push sign-ins): more are refused, so nobody can bury a person in prompts.
        public var pendingRequestsPerPerson = 3
        /// Push sign-ins asked from one client address (any e-mail), and for one e-mail address
        /// (any client address, known or not: the same answer either way).
        public var pushSignInsPerAddress = RateLimiter.Rule(limit: 10, window: 600)
        public var pushSignInsPerEmail = RateLimiter.Rule(limit: 10, window: 3600)

        /// The three limits that are serve settings: registrations an hour, pass 1 a minute.
        public init(registrationsPerAddress: Int, pass1PerAddress: Int, pass1PerIdentityAndAddress: Int) {
            self.registrationsPerAddress = RateLimiter.Rule(limit: registrationsPerAddress, window: 3600)
            self.pass1PerAddress = RateLimiter.Rule(limit: pass1PerAddress, window: 60)
            self.pass1PerIdentityAndAddress = RateLimiter.Rule(limit: pass1PerIdentityAndAddress, window: 60)
        }
    }

    /// One-time codes for password-only systems (docs/limits.md).
    public struct OTPSettings: Sendable {
        /// Digits of a code.
        public var digits: Int
        /// Seconds a code stays valid.
        public var ttl: Int
        /// Wrong codes per person, per service and window; then that service's checks for that
        /// person answer 429 until the window ends (PIN logins are never touched).
        public var wrongCodes: RateLimiter.Rule

        public init(digits: Int, ttl: Int, wrongCodes: RateLimiter.Rule) {
            self.digits = digits; self.ttl = ttl; self.wrongCodes = wrongCodes
        }
    }

    /// Whether the public URL is https (cookie prefix and Secure flag).
    public var isHTTPS: Bool { publicURL.lowercased().hasPrefix("https://") }
}
