import Prometheus

/// The provider's counters, in the relying party's registry (so `/metrics` shows them).
struct OIDCMetrics: Sendable {
    let authorizations: Counter
    let tokens: Counter
    let refusals: Counter
    let logouts: Counter

    init(_ metrics: ServerMetrics) {
        authorizations = metrics.registry.makeCounter(name: "zkpin_oidc_authorizations_total")
        tokens = metrics.registry.makeCounter(name: "zkpin_oidc_tokens_total")
        refusals = metrics.registry.makeCounter(name: "zkpin_oidc_refusals_total")
        logouts = metrics.registry.makeCounter(name: "zkpin_oidc_logouts_total")
    }
}
