import Configuration
import Foundation

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
        for setting in ServeSettings.all {
            if let text = flags[setting.name] {
                values[setting.name] = Value(text: text, source: .flag(setting.flag))
            } else if let text = environmentReader.string(forKey: ConfigKey(["zkpin", setting.name])), !text.isEmpty {
                values[setting.name] = Value(text: text, source: .environment(setting.environmentVariable))
            } else if let file, let text = file.values[setting.name] {
                values[setting.name] = Value(text: text, source: .file(path: file.path))
            } else if let text = setting.defaultText {
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
        for setting in ServeSettings.all {
            guard let text = text(setting.name) else { continue }
            guard setting.read(text, into: &o) else { throw invalid(setting.name, setting.requirement) }
        }
        if o.port == 0 && o.publicURL == nil {
            throw invalid("port", "is 0, which needs --public-url: the default public URL (http://host:port) would name port 0")
        }
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
}
