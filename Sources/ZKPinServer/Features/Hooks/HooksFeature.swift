import AsyncHTTPClient
import Logging

/// The Hooks feature: security events from the audit log to the operator's receivers, signed
/// with the OpenID Connect provider's keys.
final class HooksFeature: Sendable {
    let deliverer: HookDeliverer

    init(rp: RelyingParty, provider: OIDCProvider, maxAge: Int, http: HTTPClient, logger: Logger) {
        deliverer = HookDeliverer(provider: provider, metrics: HooksMetrics(rp.metrics), logger: logger, http: http, maxAge: maxAge)
    }
}
