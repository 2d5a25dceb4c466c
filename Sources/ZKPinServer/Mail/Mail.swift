import Foundation

/// A plain-text message.
public struct Mail: Sendable, Equatable {
    public var from: String
    public var to: String
    public var subject: String
    public var body: String

    public init(from: String, to: String, subject: String, body: String) {
        self.from = from; self.to = to; self.subject = subject; self.body = body
    }

    /// RFC 5322 text with CRLF line ends. Addresses were validated (no CR/LF), so no header
    /// injection is possible; body lines starting with "." are dot-stuffed by the SMTP sender.
    public func rfc5322(date: Date = Date(), messageID: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let headers = [
            "Date: \(formatter.string(from: date))",
            "From: \(from)",
            "To: \(to)",
            "Subject: \(subject)",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit"
        ]
        let normalized = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + normalized + "\r\n"
    }
}

/// Sends mail somewhere: an outbox folder or an SMTP server.
public protocol Mailer: Sendable {
    func send(_ mail: Mail) async throws
}

/// Writes each message as one `.eml` file into a folder (the default; the demo prints where).
public struct OutboxMailer: Mailer {
    public let directory: String

    public init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    public func send(_ mail: Mail) async throws {
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        let id = Tokens.fresh(bytes: 6)
        let text = mail.rfc5322(messageID: "\(stamp).\(id)@zkpin")
        let path = (directory as NSString).appendingPathComponent("\(stamp)-\(id).eml")
        // 0600 (a mail holds an activation link), and whole: a reader never sees half a message.
        try PrivateFile.write(Array(text.utf8), to: path, replace: true)
    }
}
