import ZKPinProtocol

/// One setting of `zkpin-server serve`. Its command-line flag is `--<name>`, its environment
/// variable `ZKPIN_<NAME>` (dashes as underscores) and its key in the `--config` JSON file
/// `<name>`; `ServeConfiguration` resolves them in that order, then the default.
public struct ServeSetting: Sendable {
    public enum Kind: Sendable { case text, integer, onOff }

    public let name: String
    public let kind: Kind
    /// nil: unset unless given (the help says what happens then).
    public let defaultValue: String?
    public let help: String
    /// Shown masked by `config check` (a URL's password, for instance).
    public let mayHoldSecret: Bool

    init(_ name: String, _ kind: Kind = .text, default defaultValue: String? = nil, mayHoldSecret: Bool = false, help: String) {
        self.name = name; self.kind = kind; self.defaultValue = defaultValue; self.help = help
        self.mayHoldSecret = mayHoldSecret
    }

    public var flag: String { "--" + name }
    public var environmentVariable: String { "ZKPIN_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    public static func named(_ name: String) -> ServeSetting {
        guard let setting = all.first(where: { $0.name == name }) else { preconditionFailure("no serve setting \(name)") }
        return setting
    }

    /// The help text with the default and the other places the setting can come from.
    public static func helpText(_ name: String) -> String {
        let setting = named(name)
        let defaultText = setting.defaultValue.map { " (default \($0))" } ?? ""
        return "\(setting.help)\(defaultText). Also \(setting.environmentVariable) or \"\(name)\" in --config."
    }

    public static let all: [ServeSetting] = [
        ServeSetting("host", default: "127.0.0.1", help: "Address to listen on"),
        ServeSetting("port", .integer, default: "8080", help: "Port; 0 picks a free one (printed; needs --public-url)"),
        ServeSetting("data", default: "./zkpin-data", help: "Data folder (database, keys, outbox)"),
        ServeSetting("curve", help: "\(CurveID.names()); fixed at first start (unset: the data folder's, else bls12-381)"),
        ServeSetting("public-url", help: "The URL people use (unset: http://host:port)"),
        ServeSetting("service-name", default: "ZKPin", help: "The service's name on pages, in mails and in /service"),
        ServeSetting(
            "mail-from", default: "ZKPin <no-reply@zkpin.invalid>",
            help: "Sender of activation mails; set an address your mail relay accepts"),
        ServeSetting("outbox", help: "Folder for activation mails as .eml files (unset: DATA/outbox unless --smtp)"),
        ServeSetting(
            "smtp", mayHoldSecret: true,
            help: "smtp://user@host:port; password from ZKPIN_SMTP_PASSWORD or --smtp-password-file"),
        ServeSetting("smtp-password-file", help: "0600 file holding the SMTP password"),
        ServeSetting("smtp-ca-file", help: "Extra CA (PEM) for the SMTP server"),
        ServeSetting("dta2", help: "URL of a separate D-TA 2 (zkpin-server dta; unset: D-TA 2 in this process, demo only)"),
        ServeSetting("dta2-key-file", help: "0600 file with the key shared with D-TA 2"),
        ServeSetting("permits", .onOff, default: "off", help: "Time permits: on or off"),
        ServeSetting("max-attempts", .integer, default: "3", help: "Wrong PINs before an identity is blocked, 1...100"),
        ServeSetting("notify-user", .onOff, default: "off", help: "Mail a person when wrong PINs block their identity: on or off"),
        ServeSetting("access-code-ttl", .integer, default: "120", help: "Seconds an access code lives, 10...3600"),
        ServeSetting("trusted-proxy", help: "Address of a proxy whose X-Forwarded-For is believed"),
        ServeSetting(
            "registrations-per-address", .integer, default: "30",
            help: "Registrations per client address and hour (raise it to register many load-test identities)"),
        ServeSetting(
            "pass1-per-address", .integer, default: "600",
            help: "Pass-1 requests per client address and minute (raise it for load tests from one machine)"),
        ServeSetting(
            "pass1-per-identity", .integer, default: "60",
            help: "Pass-1 requests per identity from one client address and minute"),
        ServeSetting(
            "max-connections", .integer, default: "10000",
            help: "Connections served at once; more are answered 503 (kept below the file-descriptor limit)"),
        ServeSetting(
            "max-connections-per-address", .integer, default: "0",
            help:
                "Connections one client address (an IPv6 /64) may hold; more are answered 429. 0: an eighth of max-connections (at least 16); the trusted proxy has no share, only the cap"
        ),
        ServeSetting(
            "idle-timeout", .integer, default: "30",
            help: "Seconds a connection may wait without a complete request head or part, 1...3600"),
        ServeSetting("body-timeout", .integer, default: "10", help: "Seconds a request body may take to arrive, 1...600"),
        ServeSetting(
            "verification-batch", .integer, default: "256",
            help: "The most pass-2 logins verified together, 1...4096 (1 verifies each alone)"),
        ServeSetting(
            "verification-wait", .integer, default: "2",
            help: "Milliseconds a batch of pass-2 logins may wait for more to join it, 0...1000, only while the last batch had several (0: never)"),
        ServeSetting(
            "identity-cache", .integer, default: "16384",
            help:
                "Identities (per day with time permits) whose hashed points the server keeps between logins, 1...1000000: about 2.1 KB each on bn254cx, 3.1 KB on bls12-381"
        ),
        ServeSetting("otp-digits", .integer, default: "6", help: "Digits of a one-time code (pass 2 with OTP), 6...8"),
        ServeSetting("otp-ttl", .integer, default: "90", help: "Seconds a one-time code stays valid, 15...600"),
        ServeSetting(
            "otp-wrong-codes", .integer, default: "5",
            help: "Wrong one-time codes per person and service in a window (otp-wrong-window) before that service's checks wait, 1...1000"),
        ServeSetting("otp-wrong-window", .integer, default: "300", help: "Seconds of the wrong one-time code window, 10...86400"),
        ServeSetting(
            "push-services",
            help:
                "Web Push services the server may send to, ORIGIN,... (https, a wildcard as the whole first label; http only on loopback; unset: the push services of Chrome and Android, Firefox, Safari and iOS, Edge)"
        ),
        ServeSetting(
            "database", mayHoldSecret: true,
            help:
                "postgres://USER@HOST:PORT/DATABASE shared by several instances, or postgres://USER@/DATABASE?host=/run/postgresql through the local Unix socket (unset: SQLite in the data folder); password from PGPASSWORD or --database-password-file"
        ),
        ServeSetting("database-password-file", help: "0600 file holding the PostgreSQL password"),
        ServeSetting(
            "web-dir",
            help:
                "Folder of the web client (mpin.js, lib/, app/) served at /js and /app (unset: share/zkpin/web above the binaries, else the repository's web/)"
        ),
        ServeSetting("log-level", default: "info", help: "trace, debug, info, notice, warning, error or critical"),
        ServeSetting("log-format", default: "text", help: "text or json (one JSON object per line)")
    ]
}
