import Prometheus

/// zkpin_hook_* in the relying party's registry.
struct HooksMetrics: Sendable {
    let sent: Counter
    let failed: Counter
    let refused: Counter
    let dropped: Counter
    /// Audit rows not yet handled by the hook furthest behind.
    let lag: Gauge

    init(_ metrics: ServerMetrics) {
        let r = metrics.registry
        sent = ServerMetrics.counter(r, "hook_events_sent", "Security event tokens a hook's receiver accepted.")
        failed = ServerMetrics.counter(
            r, "hook_events_failed", "Security event posts that failed and are retried (5xx, 429, timeout, no connection).")
        refused = ServerMetrics.counter(r, "hook_events_refused", "Security event tokens a receiver refused (another 4xx, a redirect): skipped.")
        dropped = ServerMetrics.counter(r, "hook_events_dropped", "Security events skipped undelivered because they were older than hook-max-age.")
        lag = r.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "zkpin", metricName: "hook_lag", unitName: "", helpText: "Audit rows the slowest hook has not handled yet."))
    }
}
