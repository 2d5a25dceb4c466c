import Configuration
import Foundation

/// The settings of a `--config` JSON file, read with swift-configuration's FileProvider:
/// `{"port": 8443, "public-url": "https://login.example.com", "permits": "on"}`.
/// Keys are checked against the serve settings, so a typo is an error rather than ignored.
struct ConfigFileSettings {
    let path: String
    let values: [String: String]

    static func read(path: String) async throws(ConfigurationError) -> ConfigFileSettings {
        let source = SettingSource.file(path: path)
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ConfigurationError("the config file \(path) does not exist or cannot be read", source: source)
        }
        let keys: [String]
        do {
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let dictionary = object as? [String: Any] else {
                throw ConfigurationError("the config file \(path) must hold one JSON object of settings", source: source)
            }
            keys = Array(dictionary.keys)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("the config file \(path) is not valid JSON", source: source)
        }
        let names = ServeSettings.all.map { $0.name }
        let known = Set(names)
        if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigurationError(
                "the config file \(path) has an unknown setting \"\(unknown)\"; the settings are: \(names.joined(separator: ", "))",
                source: source)
        }
        let reader: ConfigReader
        do {
            reader = ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: .init(path)))
        } catch {
            throw ConfigurationError("the config file \(path) cannot be read as JSON settings", source: source)
        }
        var values: [String: String] = [:]
        for key in keys {
            let configKey = ConfigKey([key])
            // JSON gives strings, numbers or booleans; each setting parses its text.
            if let text = reader.string(forKey: configKey) ?? reader.int(forKey: configKey).map(String.init)
                ?? reader.bool(forKey: configKey).map({ $0 ? "on" : "off" })
            {
                values[key] = text
            } else {
                throw ConfigurationError("\"\(key)\" in \(path) must be a string, a number or true/false", source: source)
            }
        }
        return ConfigFileSettings(path: path, values: values)
    }
}
