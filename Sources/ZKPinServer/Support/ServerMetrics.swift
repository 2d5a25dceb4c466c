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
    }

    /// The Prometheus text format.
    public func text() -> String {
        var buffer = [UInt8]()
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
