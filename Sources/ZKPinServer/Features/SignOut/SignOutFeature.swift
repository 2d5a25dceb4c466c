import AsyncHTTPClient
import Logging

/// The SignOut feature's parts, built on the OpenID Connect provider: the ending of sign-ins
/// at sites (on a sign-out here, and once an identity stops being active), the back-channel
/// logout queue's deliverer, and `/oauth/logout` with its front-channel frames.
final class SignOutFeature: Sendable {
    let sites: SiteSignOut
    let deliverer: BackchannelLogouts

    /// `window`: seconds a back-channel logout is retried before it is dropped.
    init(rp: RelyingParty, provider: OIDCProvider, window: Int, http: HTTPClient, logger: Logger) {
        let sites = SiteSignOut(provider: provider, metrics: SignOutMetrics(rp.metrics), logger: logger, wake: Wakeup(), window: window)
        self.sites = sites
        deliverer = BackchannelLogouts(signOut: sites, http: http)
        // Every sign-out of a web session (the pages' and the account's; /oauth/logout ends
        // its sites first, so this finds nothing left). Weakly: the relying party keeps its
        // listeners, and the sites' provider keeps the relying party.
        rp.events.listen { [weak self] event in
            guard case .signedOut(_, _, let sessionHash) = event, let self else { return }
            await self.sites.endSession(sessionHash: sessionHash)
        }
    }
}
