import Logging
import ZKPinProtocol

/// The settings of `zkpin-server serve`, each written once, in the order `--help`, `config
/// check` and docs/operator.md list them. From this table come the flags (`ServeFlags`), the
/// environment variables and the config file's keys (`ServeConfiguration`), the checks and
/// their errors, `config check`'s report and the operator's guide's table (a test compares
/// them). A property's name is the one `ServeOptions` reads it by (`options.otpTTL`).
///
/// Adding a setting: one property here, and the line that uses its value (most go into
/// `ServerConfig`, in `App/ServerConfig+Options.swift`); then `ZKPIN_UPDATE_DOCS=1 swift test
/// --skip-build --filter SettingsDocTests` writes docs/operator.md's table.
public struct ServeSettings: Sendable {
    public let host = ServeSetting<String>(
        "host", default: "127.0.0.1", valueName: "HOST", help: "Address to listen on", docs: "Keep it on loopback behind a proxy")
    public let port = ServeSetting<Int>(
        "port", default: 8080, in: 0...65535, valueName: "PORT", help: "Port; 0 picks a free one, printed at start, and needs --public-url")
    public let dataDirectory = ServeSetting<String>("data", default: "./zkpin-data", valueName: "DIR", help: "Data folder: database, keys, outbox")
    public let curve = ServeSetting<CurveID?>(
        "curve", unset: "the data folder's, else bls12-381", valueName: "CURVE", values: CurveID.names(),
        requirement: "is not a known curve; use \(CurveID.names())", help: "The curve, fixed at the first start",
        docs: "`bls12-381` has about 120-bit security; `bn254cx` about 100-bit, for compatibility with older M-Pin deployments",
        parse: { CurveID(name: $0) })
    public let publicURL = ServeSetting<String?>(
        "public-url", unset: "http://host:port", valueName: "URL", requirement: "must start with http:// or https://",
        help: "The URL people use",
        docs: "The proxy's `https://...`: it goes into the QR code, mails, the OpenID Connect issuer, and makes the session cookie `Secure`"
    ) { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
    public let serviceName = ServeSetting<String>(
        "service-name", default: "ZKPin", valueName: "NAME", requirement: "must not be empty",
        help: "The service's name on pages, in mails and in /service"
    ) { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    public let mailFrom = ServeSetting<String>(
        "mail-from", default: "ZKPin <no-reply@zkpin.invalid>", valueName: "FROM",
        requirement: "must be an address like no-reply@example.com or \"Name <no-reply@example.com>\"",
        help: "Sender of activation mails; set an address your mail relay accepts"
    ) { MailSender.isUsable($0) }
    public let outbox = ServeSetting<String?>("outbox", unset: "DATA/outbox unless --smtp", valueName: "DIR", help: "Folder for mails as .eml files")
    public let smtp = ServeSetting<String?>(
        "smtp", unset: "mails go to the outbox", valueName: "URL", mayHoldSecret: true,
        help: "The mail relay, smtp://user@host:port; its password from ZKPIN_SMTP_PASSWORD or --smtp-password-file",
        docs: "([Mail](#mail-smtp))")
    public let smtpPasswordFile = ServeSetting<String?>(
        "smtp-password-file", unset: nil, valueName: "FILE", help: "0600 file holding the SMTP password")
    public let smtpCAFile = ServeSetting<String?>("smtp-ca-file", unset: nil, valueName: "FILE", help: "Extra CA (PEM) for the SMTP server")
    public let dta2URL = ServeSetting<String?>(
        "dta2", unset: "D-TA 2 in this process, demo only", valueName: "URL", help: "URL of a separate D-TA 2, run by zkpin-server dta",
        docs: "([D-TA 2](#d-ta-2-on-its-own-machine))")
    public let dta2KeyFile = ServeSetting<String?>(
        "dta2-key-file", unset: nil, valueName: "FILE", help: "0600 file with the key shared with D-TA 2")
    public let permits = ServeSetting<Bool>("permits", default: false, help: "Time permits: clients fetch a permit per day")
    public let maxAttempts = ServeSetting<Int>(
        "max-attempts", default: 3, in: 1...100, help: "Genuine wrong PINs before an identity is blocked")
    public let notifyUser = ServeSetting<Bool>(
        "notify-user", default: false, help: "Mail a person when wrong PINs block their identity",
        docs: "(through `smtp` or the outbox, from `mail-from`)")
    public let pendingRequests = ServeSetting<Int>(
        "pending-requests", default: 3, in: 1...1000,
        help: "Requests that may wait on one person's devices at once, of each kind (a site's approvals, push sign-ins); more are refused",
        docs: "([Notifications](#notifications-web-push))")
    public let notMeBlocks = ServeSetting<Bool>(
        "not-me-blocks", default: false, help: "\"Not me\" on a device also blocks every identity of the person until an operator unblocks them",
        docs: "(the person is mailed either way)")
    public let accentColor = ServeSetting<String>(
        "accent-color", default: PageBrand.defaultAccent, valueName: "#RRGGBB", requirement: PageBrand.accentRequirement,
        help: "The accent colour of the pages and the web app (header, buttons, links); white text must be readable on it",
        docs: "([Branding](#branding))", accepts: { PageBrand.isUsableAccent($0) })
    public let logoFile = ServeSetting<String?>(
        "logo-file", unset: "the ZKPin logo", valueName: "FILE",
        help: "The logo in the header of the pages and the web app: an SVG or PNG file of at most 256 KB",
        docs: "([Branding](#branding))")
    public let backchannelLogoutWindow = ServeSetting<Int>(
        "backchannel-logout-window", default: 86_400, in: 60...2_592_000, valueName: "SECONDS",
        help: "How long a site's back-channel logout is retried (with backoff) before it is dropped and counted",
        docs: "([Sign-out at the sites](#sign-out-at-the-sites))")
    public let hookMaxAge = ServeSetting<Int>(
        "hook-max-age", default: 604_800, in: 60...7_776_000, valueName: "SECONDS",
        help: "A security event a hook's receiver has not taken after this long is skipped (and counted)",
        docs: "([Security events to your systems](#security-events-to-your-systems))")
    public let admins = ServeSetting<String?>(
        "admins", unset: "no one: /admin is not served", valueName: "EMAIL,...",
        requirement: "must be e-mail addresses separated by commas",
        help: "The people who may use the admin page at /admin, signing in to it with ZKPin",
        docs: "([The admin page](#the-admin-page))"
    ) { AdminPageAccess.parse($0) != nil }
    public let forwardAuth = ServeSetting<String?>(
        "forward-auth", unset: "/auth/verify is not served", valueName: "HOST=WHO|...,...",
        requirement: "must be HOST=WHO rules, WHO being *, @DOMAIN or an e-mail address, joined by | and ,",
        help: "The hosts a reverse proxy protects with /auth/verify and who may enter each: * (anyone signed in), @DOMAIN or an e-mail address",
        docs: "([Protecting other sites](#protecting-other-sites-nginx-caddy-traefik))"
    ) { (try? ForwardAuthRules(parsing: $0)) != nil }
    public let cookieDomain = ServeSetting<String?>(
        "cookie-domain", unset: "the public URL's host only", valueName: "DOMAIN",
        requirement: "must be a domain name", help: "The session cookie's domain, so that the sites under it a proxy protects see the sign-in",
        docs: "It must contain the public URL's host ([Protecting other sites](#protecting-other-sites-nginx-caddy-traefik))"
    ) { ForwardAuthRules.isHostName($0) && $0.contains(".") }
    public let accessCodeTTL = ServeSetting<Int>(
        "access-code-ttl", default: 120, in: 10...3600, valueName: "SECONDS", help: "Seconds an access code on the page lives")
    public let trustedProxy = ServeSetting<String?>(
        "trusted-proxy", unset: nil, valueName: "ADDRESS", help: "Address of a proxy whose X-Forwarded-For is believed",
        docs: "(rate limits and the audit log then use the person's address)")
    public let registrationsPerAddress = ServeSetting<Int>(
        "registrations-per-address", default: 30, in: 1...1_000_000,
        help: "Registrations (and re-sent mails) per client address and hour; raise it to register many load-test identities",
        docs: "([limits](limits.md))")
    public let pass1PerAddress = ServeSetting<Int>(
        "pass1-per-address", default: 600, in: 1...100_000_000,
        help: "Pass-1 requests (logins started) per client address and minute; raise it for load tests from one machine",
        docs: "([limits](limits.md))")
    public let pass1PerIdentity = ServeSetting<Int>(
        "pass1-per-identity", default: 60, in: 1...100_000_000, help: "Pass-1 requests per identity from one client address and minute",
        docs: "([limits](limits.md))")
    public let maxConnections = ServeSetting<Int>(
        "max-connections", default: 10_000, in: 1...1_000_000,
        help: "Connections served at once; one more is answered 503 and closed",
        docs: "The cap is kept 256 under the file-descriptor limit, which the server raises to the hard limit at start")
    public let maxConnectionsPerAddress = ServeSetting<Int>(
        "max-connections-per-address", default: 0, in: 0...1_000_000,
        help:
            "Connections one client address (an IPv6 /64) may hold; one more is answered 429 and closed. 0: an eighth of max-connections (at least 16); the trusted proxy has no share, only the cap",
        docs: "Limit connections per client in the proxy")
    public let idleTimeout = ServeSetting<Int>(
        "idle-timeout", default: 30, in: 1...3600, valueName: "SECONDS",
        help: "Seconds a connection may wait without a complete request head or part")
    public let bodyTimeout = ServeSetting<Int>(
        "body-timeout", default: 10, in: 1...600, valueName: "SECONDS", help: "Seconds a request body may take to arrive")
    public let verificationBatch = ServeSetting<Int>(
        "verification-batch", default: 256, in: 1...4096, help: "The most pass-2 logins verified together; 1 verifies each alone")
    public let verificationWait = ServeSetting<Int>(
        "verification-wait", default: 2, in: 0...1000, valueName: "MILLISECONDS",
        help: "Milliseconds a batch of pass-2 logins may wait for more to join it, only while the last batch had several; 0: never",
        docs: "Under load, larger batches for a little latency; a lone login never waits")
    public let identityCache = ServeSetting<Int>(
        "identity-cache", default: PreparedServerSecret.defaultIdentityCacheEntries, in: 1...1_000_000,
        help:
            "Identities (per day with time permits) whose hashed points the server keeps between logins: about 2.1 KB each on bn254cx, 3.1 KB on bls12-381",
        docs: "So about 51 MB at most by default. A login of an identity not kept costs about a hash to the curve more ([limits](limits.md))")
    public let otpDigits = ServeSetting<Int>(
        "otp-digits", default: 6, in: 6...8, help: "Digits of a one-time code, drawn by pass 2 with OTP",
        docs: "([RADIUS and PAM](#one-time-codes-radius-and-pam))")
    public let otpTTL = ServeSetting<Int>(
        "otp-ttl", default: 90, in: 15...600, valueName: "SECONDS", help: "Seconds a one-time code stays valid")
    public let otpWrongCodes = ServeSetting<Int>(
        "otp-wrong-codes", default: 5, in: 1...1000,
        help: "Wrong one-time codes per person and service in a window (otp-wrong-window) before that service's checks wait",
        docs: "They answer 429 until the window ends ([limits](limits.md))")
    public let otpWrongWindow = ServeSetting<Int>(
        "otp-wrong-window", default: 300, in: 10...86400, valueName: "SECONDS", help: "Seconds of the wrong one-time code window")
    public let database = ServeSetting<String?>(
        "database", unset: "SQLite in the data folder", valueName: "URL", mayHoldSecret: true,
        help:
            "postgres://USER@HOST:PORT/DATABASE shared by several instances, or postgres://USER@/DATABASE?host=/run/postgresql through the local Unix socket; password from PGPASSWORD or --database-password-file",
        docs: "([PostgreSQL](#postgresql-several-instances))")
    public let databasePasswordFile = ServeSetting<String?>(
        "database-password-file", unset: nil, valueName: "FILE", help: "0600 file holding the PostgreSQL password")
    public let webDirectory = ServeSetting<String?>(
        "web-dir", unset: "share/zkpin/web above the binaries, else the repository's web/", valueName: "DIR",
        help: "Folder of the web client (mpin.js, lib/, app/) served at /js and /app", docs: "([The web app](#the-web-app))")
    public let logLevel = ServeSetting<Logger.Level>(
        "log-level", default: .info, valueName: "LEVEL", help: "The least severe log lines written",
        docs: "([Logs and metrics](#logs-and-metrics))")
    public let logFormat = ServeSetting<LogFormat>(
        "log-format", default: .text, valueName: "text|json", help: "Log lines as plain text, or as one JSON object each",
        docs: "([Logs and metrics](#logs-and-metrics))")
    public let pushServices = ServeSetting<String?>(
        "push-services", unset: "the push services of Chrome and Android, Firefox, Safari and iOS, and Edge", valueName: "ORIGIN,...",
        requirement: "must list https origins (https://*.example.com for its subdomains; http only on loopback), separated by commas",
        help: "Where Web Push messages may be sent; a subscription elsewhere is refused",
        docs: "([Notifications](#notifications-web-push))"
    ) { (try? PushServices(parsing: $0)) != nil }
    public let pushSubject = ServeSetting<String?>(
        "push-subject", unset: "the public URL when https, else mailto: the mail-from address", valueName: "CONTACT",
        requirement: "must be a mailto: address or an https URL", help: "The operator's contact in each VAPID token, for the push services",
        docs: "([Notifications](#notifications-web-push))"
    ) { VAPIDKey.isContact($0) }

    /// The one table.
    public static let table = ServeSettings()

    /// Every setting in the order of the properties above (a struct's mirror lists its stored
    /// properties in declaration order).
    public static let all: [any AnyServeSetting] = Mirror(reflecting: table).children.compactMap { $0.value as? any AnyServeSetting }

    public static func named(_ name: String) -> (any AnyServeSetting)? { all.first { $0.name == name } }

    private init() {}
}
