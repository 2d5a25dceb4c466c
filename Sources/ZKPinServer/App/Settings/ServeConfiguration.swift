import Configuration
import Foundation
import Logging
import ZKPinProtocol

/// The effective settings of `zkpin-server serve`: each from its flag, else its `ZKPIN_*`
/// environment variable, else the `--config` file, else its default; with where it came from.
public struct ServeConfiguration: Sendable {
    public struct Value: Sendable {
        public var text: String?
        public var source: SettingSource
    }

    public let values: [String: Value]
    /// The config file read, if any, and whether `--config` or ZKPIN_CONFIG named it.
    public let configFile: String?
    public let configFileSource: SettingSource
    /// Whether ZKPIN_SMTP_PASSWORD is set (shown masked, never printed).
    public let smtpPasswordInEnvironment: Bool

    public static let configFileVariable = "ZKPIN_CONFIG"
    public static let smtpPasswordVariable = "ZKPIN_SMTP_PASSWORD"

    /// `flags`: the settings given on the command line, by setting name; `configFile` the
    /// `--config` flag.
    public static func resolve(
        flags: [String: String], configFile flagConfigFile: String?,
        environment: [String: String]
    ) async throws(ConfigurationError) -> ServeConfiguration {
        let configFile = flagConfigFile ?? environment[configFileVariable].flatMap { $0.isEmpty ? nil : $0 }
        let configFileSource: SettingSource =
            flagConfigFile != nil
            ? .flag("--config")
            : configFile != nil ? .environment(configFileVariable) : .unset
        var file: ConfigFileSettings? = nil
        if let configFile { file = try await ConfigFileSettings.read(path: configFile) }
        // swift-configuration maps the key zkpin.<name> to ZKPIN_<NAME> (dashes as underscores).
        let environmentReader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        var values: [String: Value] = [:]
        for setting in ServeSetting.all {
            if let text = flags[setting.name] {
                values[setting.name] = Value(text: text, source: .flag(setting.flag))
            } else if let text = environmentReader.string(forKey: ConfigKey(["zkpin", setting.name])), !text.isEmpty {
                values[setting.name] = Value(text: text, source: .environment(setting.environmentVariable))
            } else if let file, let text = file.values[setting.name] {
                values[setting.name] = Value(text: text, source: .file(path: file.path))
            } else if let text = setting.defaultValue {
                values[setting.name] = Value(text: text, source: .defaultValue)
            } else {
                values[setting.name] = Value(text: nil, source: .unset)
            }
        }
        let password = environment[smtpPasswordVariable].map { !$0.isEmpty } ?? false
        return ServeConfiguration(
            values: values, configFile: configFile, configFileSource: configFileSource,
            smtpPasswordInEnvironment: password)
    }

    public func text(_ name: String) -> String? { values[name]?.text }
    public func source(_ name: String) -> SettingSource { values[name]?.source ?? .unset }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        let text = self.text(name) ?? ServeSetting.named(name).defaultValue ?? ""
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
            throw invalid(name, "must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    func onOff(_ name: String) throws(ConfigurationError) -> Bool {
        switch (text(name) ?? "").lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw invalid(name, "must be on or off")
        }
    }

    func invalid(_ name: String, _ problem: String) -> ConfigurationError {
        let source = self.source(name)
        let given = text(name).map { " (\"\($0.prefix(100))\")" } ?? ""
        let origin: String
        switch source {
        case let .flag(flag): origin = flag
        case let .environment(variable): origin = variable
        case let .file(path): origin = "\"\(name)\" in \(path)"
        case .defaultValue, .unset: origin = name
        }
        return ConfigurationError("\(origin)\(given) \(problem)", source: source)
    }

    /// The options `ZKPinServerApp` takes; every value checked.
    public func options() throws(ConfigurationError) -> ServeOptions {
        var o = ServeOptions()
        o.host = text("host") ?? o.host
        o.port = try integer("port", in: 0...65535)
        o.dataDirectory = text("data") ?? o.dataDirectory
        if let curve = text("curve") {
            guard let id = CurveID(name: curve) else { throw invalid("curve", "is not a known curve; use \(CurveID.names())") }
            o.curve = id
        }
        o.publicURL = text("public-url")
        if let url = o.publicURL, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw invalid("public-url", "must start with http:// or https://")
        }
        if o.port == 0 && o.publicURL == nil {
            throw invalid("port", "is 0, which needs --public-url: the default public URL (http://host:port) would name port 0")
        }
        o.serviceName = text("service-name") ?? o.serviceName
        guard !o.serviceName.trimmingCharacters(in: .whitespaces).isEmpty else { throw invalid("service-name", "must not be empty") }
        o.mailFrom = text("mail-from") ?? o.mailFrom
        guard MailSender.isUsable(o.mailFrom) else {
            throw invalid("mail-from", "must be an address like no-reply@example.com or \"Name <no-reply@example.com>\"")
        }
        o.outbox = text("outbox")
        o.smtp = text("smtp")
        o.smtpPasswordFile = text("smtp-password-file")
        o.smtpCAFile = text("smtp-ca-file")
        o.dta2URL = text("dta2")
        o.dta2KeyFile = text("dta2-key-file")
        o.permits = try onOff("permits")
        o.maxAttempts = try integer("max-attempts", in: 1...100)
        o.notifyUser = try onOff("notify-user")
        o.accessCodeTTL = try integer("access-code-ttl", in: 10...3600)
        o.trustedProxy = text("trusted-proxy")
        o.registrationsPerAddress = try integer("registrations-per-address", in: 1...1_000_000)
        o.pass1PerAddress = try integer("pass1-per-address", in: 1...100_000_000)
        o.pass1PerIdentity = try integer("pass1-per-identity", in: 1...100_000_000)
        o.maxConnections = try integer("max-connections", in: 1...1_000_000)
        o.maxConnectionsPerAddress = try integer("max-connections-per-address", in: 0...1_000_000)
        o.idleTimeout = try integer("idle-timeout", in: 1...3600)
        o.bodyTimeout = try integer("body-timeout", in: 1...600)
        o.verificationBatch = try integer("verification-batch", in: 1...4096)
        o.verificationWait = try integer("verification-wait", in: 0...1000)
        o.identityCache = try integer("identity-cache", in: 1...1_000_000)
        o.otpDigits = try integer("otp-digits", in: 6...8)
        o.otpTTL = try integer("otp-ttl", in: 15...600)
        o.otpWrongCodes = try integer("otp-wrong-codes", in: 1...1000)
        o.otpWrongWindow = try integer("otp-wrong-window", in: 10...86400)
        o.pushServices = text("push-services")
        o.database = text("database")
        o.databasePasswordFile = text("database-password-file")
        o.webDirectory = text("web-dir")
        _ = try logLevel()
        _ = try logFormat()
        return o
    }

    /// Settings that work but are probably not what an operator wants in production.
    public var warnings: [String] {
        var found: [String] = []
        if text("smtp") != nil, (text("mail-from") ?? "").hasSuffix(".invalid>") || (text("mail-from") ?? "").hasSuffix(".invalid") {
            found.append("mail-from is \(text("mail-from") ?? ""), which real mail relays refuse; set --mail-from to an address of your domain")
        }
        if text("dta2") == nil {
            found.append("D-TA 2 runs in this process (no --dta2): a demo setup, not for production")
        }
        return found
    }

    public func logLevel() throws(ConfigurationError) -> Logger.Level {
        guard let level = Logger.Level(rawValue: (text("log-level") ?? "info").lowercased()) else {
            throw invalid("log-level", "must be trace, debug, info, notice, warning, error or critical")
        }
        return level
    }

    public func logFormat() throws(ConfigurationError) -> LogFormat {
        guard let format = LogFormat(rawValue: (text("log-format") ?? "text").lowercased()) else {
            throw invalid("log-format", "must be text or json")
        }
        return format
    }
}
