import Prometheus

/// The counters `/metrics` shows. Each server has its own registry (no global bootstrap), so
/// tests can run several servers in one process.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let registrations: Counter
    let activations: Counter
    let logins: Counter
    let wrongPINs: Counter
    let invalidTokens: Counter
    /// Pairing verifications computed (the security tests count these).
    let verifications: Counter
    /// Batches the login verifier checked together, and the logins in them (their ratio is the
    /// mean batch size: 1 at low load).
    let verificationBatches: Counter
    let batchedVerifications: Counter
    let requests: Counter
    /// Runs of the expiry purge, its failures, and the rows of each expiring table after the last run.
    let purges: Counter
    let purgeFailures: Counter
    /// One-time codes issued by pass 2, accepted once at /otp/verify, and refused there.
    let otpIssued: Counter
    let otpUsed: Counter
    let otpRefused: Counter
    /// Approvals (CIBA) answered by the person, requests that expired unanswered, and the
    /// person's signatures refused (wrong PIN or not a valid signature).
    let approvals: Counter
    /// "Not me" answers on a device (push sign-ins and a site's approval requests).
    let notMe: Counter
    let denials: Counter
    let approvalExpiries: Counter
    let approvalRefusals: Counter

    public init() {
        registrations = Self.counter(registry, "registrations", "Registrations started (PUT /rps/user).")
        activations = Self.counter(registry, "activations", "Identities activated by their e-mailed link and code.")
        logins = Self.counter(registry, "logins", "Logins completed (POST /rps/authenticate answered 200).")
        wrongPINs = Self.counter(registry, "wrong_pins", "Pass-2 verdicts of a wrong PIN.")
        invalidTokens = Self.counter(registry, "invalid_tokens", "Pass-2 verdicts of a proof that no PIN makes valid.")
        verifications = Self.counter(registry, "verifications", "Pass-2 pairing verifications.")
        verificationBatches = Self.counter(registry, "verification_batches", "Batches of pass-2 verifications checked together.")
        batchedVerifications = Self.counter(registry, "batched_verifications", "Verifications in those batches.")
        requests = Self.counter(registry, "http_requests", "HTTP requests answered.")
        purges = Self.counter(registry, "expiry_purges", "Runs of the purge of expired rows.")
        purgeFailures = Self.counter(registry, "expiry_purge_failures", "Runs of the purge that failed.")
        otpIssued = Self.counter(registry, "otp_issued", "One-time codes issued after a verified proof (pass 2 with OTP).")
        otpUsed = Self.counter(registry, "otp_used", "One-time codes accepted at /otp/verify.")
        otpRefused = Self.counter(registry, "otp_refused", "Checks at /otp/verify refused: wrong, used or expired code, or over the limit.")
        approvals = Self.counter(registry, "ciba_approved", "Backchannel requests (CIBA) the person approved with a signature.")
        notMe = Self.counter(registry, "not_me", "\"Not me\" answers on a device, to push sign-ins and to sites' approval requests.")
        denials = Self.counter(registry, "ciba_denied", "Backchannel requests (CIBA) the person denied.")
        approvalExpiries = Self.counter(registry, "ciba_expired", "Backchannel requests (CIBA) purged unanswered after their expiry.")
        approvalRefusals = Self.counter(
            registry, "approval_refusals", "Signatures at /rps/approvals refused: a wrong PIN or not a valid signature.")
    }

    /// zkpin_rows{table=...}: the rows of an expiring table after the last purge (the schema
    /// list names the tables: `SchemaChange.expiring`).
    func expiringRows(_ table: String) -> Gauge {
        let rows = MetricNameDescriptor(
            namespace: "zkpin", metricName: "rows", unitName: "", helpText: "Rows of each expiring table after the last purge.")
        return registry.makeGauge(descriptor: rows, labels: [("table", table)])
    }

    /// zkpin_NAME_total, with its `# HELP` line.
    static func counter(_ registry: PrometheusCollectorRegistry, _ name: String, _ help: String) -> Counter {
        registry.makeCounter(descriptor: MetricNameDescriptor(namespace: "zkpin", metricName: name, unitName: "total", helpText: help))
    }

    /// The Prometheus text format.
    public func text() -> String {
        var buffer = [UInt8]()
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
