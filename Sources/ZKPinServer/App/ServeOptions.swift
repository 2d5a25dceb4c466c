import ZKPinProtocol

/// What `zkpin-server serve` is told (and what tests and tools pass to `ZKPinServerApp`).
public struct ServeOptions: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (the `onRunning` callback of `serve` tells which); it needs
    /// `publicURL`, since the default public URL would name port 0.
    public var port = 8080
    public var dataDirectory = "./zkpin-data"
    /// nil: SQLite in the data folder; `postgres://user@host:port/db` for several instances
    /// (their data folders must hold the same keys: share or copy the folder).
    public var database: String?
    /// 0600 file with the PostgreSQL password (else PGPASSWORD).
    public var databasePasswordFile: String?
    /// Registrations (and re-sent mails) per client address and hour.
    public var registrationsPerAddress = 30
    /// Pass-1 requests per client address and minute (`zkpin load` raises it).
    public var pass1PerAddress = 600
    /// Pass-1 requests per identity from one client address and minute.
    public var pass1PerIdentity = 60
    /// Connections served at once; more get a 503 (clamped below the file-descriptor limit).
    public var maxConnections = 10_000
    /// Connections one client address may hold; 0: an eighth of the cap.
    public var maxConnectionsPerAddress = 0
    /// Seconds a connection may stay without a complete request part (also the header timeout).
    public var idleTimeout = 30
    /// Seconds a request body may take to arrive after its head.
    public var bodyTimeout = 10
    /// `--verification-batch`: the most logins verified together.
    public var verificationBatch = 256
    /// `--identity-cache`: identities whose hashed points the server keeps between logins.
    public var identityCache = PreparedServerSecret.defaultIdentityCacheEntries
    /// `--verification-wait`: milliseconds a batch may wait for more logins, under load only.
    public var verificationWait = 2
    /// One-time codes: digits, lifetime, wrong codes per person, service and window.
    public var otpDigits = 6
    public var otpTTL = 90
    public var otpWrongCodes = 5
    public var otpWrongWindow = 300
    /// Web Push: the origins the server may send to (comma-separated; nil: the browsers' push
    /// services), and VAPID's contact (nil: the public URL when https, else mailto: the sender).
    public var pushServices: String?
    public var pushSubject: String?
    /// nil: the curve stored in the data folder, or bls12-381 on first start.
    public var curve: CurveID?
    /// nil: http://host:port (refused when port is 0).
    public var publicURL: String?
    /// nil: `<data>/outbox` unless `smtp` is set.
    public var outbox: String?
    /// `smtp://user@host:port` (password from ZKPIN_SMTP_PASSWORD or `smtpPasswordFile`).
    public var smtp: String?
    public var smtpPasswordFile: String?
    /// Extra CA certificate (PEM) trusted for the SMTP server's STARTTLS (tests, private CAs).
    public var smtpCAFile: String?
    /// D-TA 2 as its own service; nil runs it in this process (demo/development).
    public var dta2URL: String?
    public var dta2KeyFile: String?
    public var permits = false
    public var maxAttempts = 3
    public var accessCodeTTL = 120
    public var trustedProxy: String?
    public var serviceName = "ZKPin"
    /// The sender of activation mails (`--mail-from`).
    public var mailFrom = "ZKPin <no-reply@zkpin.invalid>"
    /// Mail a person when wrong PINs block their identity.
    public var notifyUser = false
    /// The client command the login page tells people to run (`zkpin-server demo
    /// --client-command`: the demo's client is not on PATH).
    public var clientCommand = "zkpin"
    /// `--web-dir`: the web client's folder (nil: found beside the installed binaries or in the
    /// repository, `WebFolder`).
    public var webDirectory: String?

    public init() {}
}

/// What `zkpin-server dta` is told.
public struct DTAOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8081
    public var dataDirectory = "./zkpin-dta2"
    public var curve: CurveID = .bls12_381
    /// `--cors-origin`: the relying party's origin (`https://login.example.com`) whose web app
    /// may read the shares from the browser; nil answers no origin.
    public var corsOrigin: String?
    public var keyFile: String
    public init(keyFile: String) { self.keyFile = keyFile }
}
