import Logging

/// Mails a person when wrong PINs blocked their identity (`serve --notify-user on`), so the
/// owner hears of it whether they typed the PINs or someone with their device did. The mail
/// goes out in the background: a login's answer never waits for the mail relay.
struct BlockNotifier: Sendable {
    let config: ServerConfig
    let mailer: any Mailer
    let logger: Logger

    func blocked(_ identity: Identity, address: String) {
        guard config.notifyOnBlock else { return }
        let mail = AccountNotice.blocked(
            userId: identity.userId, device: identity.device, maxAttempts: config.maxAttempts,
            serviceName: config.serviceName, publicURL: config.publicURL, from: config.mailFrom)
        let mailer = self.mailer, logger = self.logger
        Task {
            do { try await mailer.send(mail) } catch {
                logger.error("block notice mail failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
