/// What `zkpin-server config check` prints: every effective setting, where it came from, with
/// secrets masked (a URL's password, the SMTP password from the environment).
public enum SettingsReport {
    public static let mask = "********"

    public static func lines(_ configuration: ServeConfiguration) -> [String] {
        var rows: [[String]] = [["SETTING", "VALUE", "SOURCE"]]
        for setting in ServeSettings.all {
            let value = configuration.values[setting.name]
            var text = value?.text ?? "-"
            if setting.mayHoldSecret, let raw = value?.text { text = maskedURLPassword(raw) }
            rows.append([setting.name, text, (value?.source ?? .unset).description])
        }
        rows.append([
            "smtp-password", configuration.smtpPasswordInEnvironment ? mask : "-",
            configuration.smtpPasswordInEnvironment ? "environment \(ServeConfiguration.smtpPasswordVariable)" : "unset"
        ])
        rows.append(["config", configuration.configFile ?? "-", configuration.configFileSource.description])
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
                + row[1].padding(toLength: widths[1], withPad: " ", startingAt: 0) + "  " + row[2]
        }
    }

    /// `scheme://user:secret@host/...` with the secret replaced; other text unchanged.
    public static func maskedURLPassword(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[authority.startIndex..<at].firstIndex(of: ":") else {
            return text
        }
        return String(text[text.startIndex..<authority.index(after: colon)]) + mask + String(text[at...])
    }
}
