import Prometheus

/// The provider's counters, in the relying party's registry (so `/metrics` shows them).
struct OIDCMetrics: Sendable {
    let authorizations: Counter
    let tokens: Counter
    let refusals: Counter
    let logouts: Counter
    let backchannelRequests: Counter
    let introspections: Counter
    let revocations: Counter

    init(_ metrics: ServerMetrics) {
        let registry = metrics.registry
        authorizations = ServerMetrics.counter(registry, "oidc_authorizations", "OpenID Connect authorization codes issued.")
        tokens = ServerMetrics.counter(registry, "oidc_tokens", "OpenID Connect token responses (codes and refresh tokens redeemed).")
        refusals = ServerMetrics.counter(registry, "oidc_refusals", "OpenID Connect requests refused (bad client, redirect, code or token).")
        logouts = ServerMetrics.counter(registry, "oidc_logouts", "OpenID Connect logouts.")
        backchannelRequests = ServerMetrics.counter(registry, "ciba_requests", "Backchannel authentication requests (CIBA) accepted.")
        introspections = ServerMetrics.counter(registry, "oidc_introspections", "Token introspections (RFC 7662) answered.")
        revocations = ServerMetrics.counter(registry, "oidc_revocations", "Token revocation requests (RFC 7009) answered.")
    }
}
