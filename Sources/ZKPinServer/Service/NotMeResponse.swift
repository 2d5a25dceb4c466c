import Logging

/// "Not me": the person answers, on their device, that a request was not theirs (a push
/// sign-in, a site's approval request). The feature denies the request and audits it; this
/// counts it, mails the person, and with `--not-me-blocks on` blocks every identity of theirs
/// until an operator unblocks them, so nobody signs in as them meanwhile.
struct NotMeResponse: Sendable {
    let config: ServerConfig
    let storage: StorageGateway
    let metrics: ServerMetrics
    let mailer: any Mailer
    let logger: Logger

    /// Returns whether the person's identities were blocked. `request`: what was asked, in
    /// words for the mail; `askedFrom`: the client address that asked, when known.
    func record(_ identity: Identity, request: String, askedFrom: String?) async throws(APIError) -> Bool {
        metrics.notMe.increment()
        let blocked =
            config.notMeBlocks
            ? try await storage("block identities") { try await $0.block(IdentitySelection(userId: identity.userId)) } > 0 : false
        let mail = AccountNotice.notMe(
            userId: identity.userId, device: identity.device, request: request, address: askedFrom, blocked: blocked,
            serviceName: config.serviceName, publicURL: config.publicURL, from: config.mailFrom)
        let mailer = self.mailer, logger = self.logger
        // In the background: the device's answer never waits for the mail relay.
        Task {
            do { try await mailer.send(mail) } catch { logger.error("not-me notice mail failed", metadata: ["error": "\(error)"]) }
        }
        return blocked
    }
}
