import ArgumentParser
import ZKPinServer

/// The settings of `serve` and `config check` on the command line: `--config` and one option
/// per entry of `ServeSettings` (`--<name> <VALUE NAME>`, its help from the table). Every one
/// is optional here: when a flag is not given, `ServeConfiguration` takes the environment, the
/// config file or the default, in that order.
///
/// ArgumentParser finds a command's options by reflecting an instance (`Mirror`), so this
/// type's mirror lists one `Option` per setting instead of one stored property each, and
/// `init(from:)` decodes them by the same keys; `ServeCommandTests` holds the flags to the table.
struct ServeFlags: ParsableArguments, CustomReflectable {
    /// `--config FILE`.
    var config: String?
    /// The settings given on the command line, by setting name.
    var given: [String: String] = [:]

    static let configKey = "config"

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        config = try container.decode(Option<String?>.self, forKey: Key(Self.configKey)).wrappedValue
        for setting in ServeSettings.all {
            if let text = try container.decode(Option<String?>.self, forKey: Key(setting.name)).wrappedValue {
                given[setting.name] = text
            }
        }
    }

    var customMirror: Mirror {
        let config = Option<String?>(
            name: .customLong(Self.configKey),
            help: ArgumentHelp(
                "JSON file of settings, keys named like the flags: {\"port\": 8443, \"service-name\": \"Example\"}. Also ZKPIN_CONFIG.",
                valueName: "FILE"))
        let settings: [Mirror.Child] = ServeSettings.all.map { setting in
            (setting.name, Option<String?>(name: .customLong(setting.name), help: ArgumentHelp(setting.helpText, valueName: setting.valueName)))
        }
        return Mirror(self, children: [(Self.configKey, config)] + settings)
    }

    /// A setting's name as the key of its option.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
