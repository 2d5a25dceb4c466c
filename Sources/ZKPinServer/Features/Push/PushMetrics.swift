import Prometheus

/// zkpin_push_*_total in the relying party's registry.
struct PushMetrics: Sendable {
    /// Messages a push service took.
    let sent: Counter
    /// Sends that failed (retried while the message lives, or dropped when refused).
    let failed: Counter
    /// Subscriptions removed because the push service said they are gone (404, 410).
    let gone: Counter
    /// Messages queued (one per subscription).
    let queued: Counter
    /// Push sign-ins asked from sign-in pages (any e-mail address, known or not).
    let signIns: Counter
    /// Push sign-ins denied on a device: a number that was not the page's.
    let signInsDenied: Counter

    init(_ metrics: ServerMetrics) {
        let r = metrics.registry
        sent = ServerMetrics.counter(r, "push_sent", "Web Push messages a push service accepted.")
        failed = ServerMetrics.counter(r, "push_failed", "Web Push sends that failed (retried until the message expires, or dropped when refused).")
        gone = ServerMetrics.counter(r, "push_gone", "Web Push subscriptions removed because the push service said they are gone (404, 410).")
        queued = ServerMetrics.counter(r, "push_queued", "Web Push messages queued (one per subscription).")
        signIns = ServerMetrics.counter(r, "push_signins", "Push sign-ins asked from sign-in pages.")
        signInsDenied = ServerMetrics.counter(r, "push_signins_denied", "Push sign-ins denied on a device: the number tapped was not the page's.")
    }
}
