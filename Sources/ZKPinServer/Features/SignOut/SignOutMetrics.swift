import Prometheus

/// zkpin_logout_* in the relying party's registry.
struct SignOutMetrics: Sendable {
    /// Sign-ins at sites ended by a sign-out or the end of an identity.
    let ended: Counter
    /// Logout tokens a site took (2xx).
    let sent: Counter
    /// Posts that failed and are tried again (5xx, a timeout, no connection).
    let failed: Counter
    /// Logout tokens a site refused (another 4xx, a redirect): not retried.
    let refused: Counter
    /// Logouts dropped undelivered when their window closed.
    let dropped: Counter
    /// Logouts waiting for their sites.
    let queue: Gauge

    init(_ metrics: ServerMetrics) {
        let r = metrics.registry
        ended = ServerMetrics.counter(r, "site_signins_ended", "Sign-ins at sites ended by a sign-out or the end of an identity.")
        sent = ServerMetrics.counter(r, "backchannel_logouts_sent", "Back-channel logout tokens a site accepted.")
        failed = ServerMetrics.counter(r, "backchannel_logouts_failed", "Back-channel logout posts that failed and are retried.")
        refused = ServerMetrics.counter(
            r, "backchannel_logouts_refused", "Back-channel logout tokens a site refused (4xx or a redirect): not retried.")
        dropped = ServerMetrics.counter(r, "backchannel_logouts_dropped", "Back-channel logouts dropped undelivered when their window closed.")
        queue = r.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "zkpin", metricName: "backchannel_logout_queue", unitName: "", helpText: "Back-channel logouts waiting for their sites."))
    }
}
