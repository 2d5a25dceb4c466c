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
    let expiringRows: [String: Gauge]

    public init() {
        registrations = registry.makeCounter(name: "zkpin_registrations_total")
        activations = registry.makeCounter(name: "zkpin_activations_total")
        logins = registry.makeCounter(name: "zkpin_logins_total")
        wrongPINs = registry.makeCounter(name: "zkpin_wrong_pins_total")
        invalidTokens = registry.makeCounter(name: "zkpin_invalid_tokens_total")
        verifications = registry.makeCounter(name: "zkpin_verifications_total")
        verificationBatches = registry.makeCounter(name: "zkpin_verification_batches_total")
        batchedVerifications = registry.makeCounter(name: "zkpin_batched_verifications_total")
        requests = registry.makeCounter(name: "zkpin_http_requests_total")
        purges = registry.makeCounter(name: "zkpin_expiry_purges_total")
        purgeFailures = registry.makeCounter(name: "zkpin_expiry_purge_failures_total")
        var gauges: [String: Gauge] = [:]
        for table in ExpiringTables.names { gauges[table] = registry.makeGauge(name: "zkpin_rows", labels: [("table", table)]) }
        expiringRows = gauges
    }

    /// The Prometheus text format.
    public func text() -> String {
        var buffer = [UInt8]()
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
