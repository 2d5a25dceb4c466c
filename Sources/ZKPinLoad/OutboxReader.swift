import Foundation
import ZKPinClient

/// Finds activation links in a server's outbox folder (`.eml` files, the server's default
/// mailer): how the load driver activates its identities without a person reading mail.
/// It reads each file once and keeps an index from recipient to link.
actor OutboxReader {
    let directory: String
    private var seen: Set<String> = []
    private var links: [String: String] = [:]

    init(directory: String) { self.directory = directory }

    /// The activation link mailed to `email`, waiting up to `timeout` seconds for the mail.
    func link(to email: String, timeout: Double = 10) async throws(ClientError) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let link = links[email.lowercased()] { return link }
            try scan()
            if let link = links[email.lowercased()] { return link }
            guard Date() < deadline else {
                throw .badInput(
                    "No activation mail to \(email) appeared in \(directory). Is it the outbox of the server (--outbox, default DATA/outbox)?")
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    private func scan() throws(ClientError) {
        let files: [String]
        do { files = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw .badInput("Cannot read the outbox folder \(directory): \(error.localizedDescription)")
        }
        for file in files where file.hasSuffix(".eml") && !seen.contains(file) {
            guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { continue }
            seen.insert(file)
            let lines = text.components(separatedBy: "\r\n")
            guard let to = lines.first(where: { $0.hasPrefix("To: ") })?.dropFirst(4),
                let link = lines.first(where: { $0.contains("/mpinActivate?") })
            else { continue }
            links[to.trimmingCharacters(in: .whitespaces).lowercased()] = link.trimmingCharacters(in: .whitespaces)
        }
    }
}
