/// Checks a `--mail-from` value: `addr@host` or `Name <addr@host>`, on one line (it goes into
/// a mail header and the SMTP envelope).
enum MailSender {
    static func isUsable(_ text: String) -> Bool {
        guard !text.contains("\r"), !text.contains("\n") else { return false }
        var address = Substring(text)
        if let open = text.lastIndex(of: "<") {
            guard text.hasSuffix(">") else { return false }
            address = text[text.index(after: open)..<text.index(before: text.endIndex)]
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && !address.contains(where: { $0 == " " || $0 == "<" || $0 == ">" })
    }
}
