import Logging

/// Ends a person's sign-ins at sites: those of one web session when it signs out, those of an
/// identity once it is no longer active. Each ended sign-in loses its tokens (introspection
/// says `active: false`, refresh is refused) and, for a site with a back-channel logout URI,
/// queues a logout token; the sign-in is counted and audited.
struct SiteSignOut: Sendable {
    let provider: OIDCProvider
    let metrics: SignOutMetrics
    let logger: Logger
    let wake: Wakeup
    /// Seconds a back-channel logout is tried before it is dropped.
    let window: Int

    /// The sign-out of the web session whose cookie hash is `sessionHash`. Never throws: a
    /// store failure is logged (the session itself ends regardless).
    @discardableResult
    func endSession(sessionHash: String, address: String? = nil) async -> [EndedLogin] {
        let sid = OIDCProvider.sid(sessionHash: sessionHash)
        let now = provider.now, window = self.window
        do {
            let ended = try await provider.storage("end sign-ins at sites") { try await $0.endSiteLogins(sid: sid, now: now, window: window) }
            await record(ended, reason: "signed out", address: address)
            return ended
        } catch {
            logger.error("the sign-ins at sites of a session could not be ended", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// The sign-ins of identities that are no longer active; answers how many it ended.
    func endForEndedIdentities(limit: Int) async throws -> Int {
        let now = provider.now, window = self.window
        let ended = try await provider.storage("end sign-ins of ended identities") {
            try await $0.endSiteLoginsOfEndedIdentities(now: now, window: window, limit: limit)
        }
        await record(ended, reason: "identity no longer active")
        return ended.count
    }

    private func record(_ ended: [EndedLogin], reason: String, address: String? = nil) async {
        guard !ended.isEmpty else { return }
        metrics.ended.increment(by: Int64(ended.count))
        for e in ended {
            let told = e.client?.backchannelLogoutURI != nil ? ", back-channel logout queued" : ""
            await provider.audit.record(
                "site_signout", userId: e.login.userId, mpinId: e.login.mpinId, address: address,
                "client \(e.login.clientId): \(reason)\(told)")
        }
        if ended.contains(where: { $0.client?.backchannelLogoutURI != nil }) { wake.signal() }
    }
}
