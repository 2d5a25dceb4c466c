extension ServeSettings {
    /// The settings as docs/operator.md's table shows them (`SettingsDocTests` compares the two).
    public static var markdownTable: String {
        var lines = ["| key | default | values | what it sets |", "|---|---|---|---|"]
        for setting in all {
            let defaultText = setting.defaultText.map { "`\($0)`" } ?? setting.unset ?? "none"
            let values = setting.values ?? "`\(setting.valueName)`"
            var what = setting.help
            if let docs = setting.docs { what += docs.hasPrefix("(") ? " " + docs : ". " + docs }
            let cells = ["`\(setting.name)`", defaultText, values, what].map { $0.replacingOccurrences(of: "|", with: "\\|") }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
