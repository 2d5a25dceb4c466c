import Foundation
import ZKPinMath
import ZKPinProtocol

/// One measured operation.
public struct BenchmarkResult: Sendable, Codable, Equatable {
    public var curve: String
    public var op: String
    public var medianNanoseconds: Double
    /// Time per call over the reference's time per call (OpenSSL's P-256 ECDSA verification)
    /// measured in alternating batches, so that drift of the machine's speed cancels out.
    public var ratioToReference: Double?

    public var operationsPerSecond: Double { medianNanoseconds > 0 ? 1e9 / medianNanoseconds : 0 }

    enum CodingKeys: String, CodingKey {
        case curve, op
        case medianNanoseconds = "median_ns"
        case operationsPerSecond = "ops_per_s"
        case ratioToReference = "x_ecdsa_verify"
    }

    public init(curve: String, op: String, medianNanoseconds: Double, ratioToReference: Double? = nil) {
        self.curve = curve; self.op = op; self.medianNanoseconds = medianNanoseconds
        self.ratioToReference = ratioToReference
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        curve = try container.decode(String.self, forKey: .curve)
        op = try container.decode(String.self, forKey: .op)
        medianNanoseconds = try container.decode(Double.self, forKey: .medianNanoseconds)
        ratioToReference = try container.decodeIfPresent(Double.self, forKey: .ratioToReference)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(curve, forKey: .curve)
        try container.encode(op, forKey: .op)
        try container.encode(medianNanoseconds.rounded(), forKey: .medianNanoseconds)
        try container.encode(operationsPerSecond.rounded(), forKey: .operationsPerSecond)
        if let ratioToReference {
            try container.encode((ratioToReference * 100).rounded() / 100, forKey: .ratioToReference)
        }
    }
}

/// Times a closure: a warm-up, then batches sized to last at least `minimumBatch`, and the
/// median time per call over the batches. One thread, wall-clock (monotonic) time.
public struct Stopwatch {
    public var warmUp: Duration = .milliseconds(100)
    public var minimumBatch: Duration = .milliseconds(5)
    public var samples = 15

    public init() {}

    public func median(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let batch = batchSize(body, clock: clock)
        var times = [Double]()
        for _ in 0..<samples { times.append(timePerCall(body, batch: batch, clock: clock)) }
        return Self.median(times)
    }

    /// The median time per call of `body` and the median of its ratios to `reference`, timed in
    /// alternating batches (body, reference, body, ...): a machine that speeds up or slows down
    /// during the run moves both sides of each ratio alike.
    public func medianAndRatio(_ body: () -> Void, reference: () -> Void) -> (nanoseconds: Double, ratio: Double) {
        let clock = ContinuousClock()
        let batch = batchSize(body, clock: clock)
        let referenceBatch = batchSize(reference, clock: clock)
        var times = [Double](), ratios = [Double]()
        for _ in 0..<samples {
            let time = timePerCall(body, batch: batch, clock: clock)
            let referenceTime = timePerCall(reference, batch: referenceBatch, clock: clock)
            times.append(time)
            ratios.append(time / max(referenceTime, 1))
        }
        return (Self.median(times), Self.median(ratios))
    }

    /// With `ZKPIN_BENCH_FIXED_CALLS=1` in the environment every measurement makes the same
    /// calls whatever the timing (one warm-up call, batches of one): tools/check-constant-time
    /// compares the instruction counts of runs, which must then make exactly the same calls.
    static let fixedCalls = ProcessInfo.processInfo.environment["ZKPIN_BENCH_FIXED_CALLS"] == "1"

    /// Calls per batch: enough to fill `minimumBatch` at the rate seen during the warm-up.
    func batchSize(_ body: () -> Void, clock: ContinuousClock) -> Int {
        if Self.fixedCalls {
            body()
            return 1
        }
        let warmUpEnd = clock.now.advanced(by: warmUp)
        var calls = 0
        while clock.now < warmUpEnd { body(); calls += 1 }
        let perCall = Double(warmUp.nanoseconds) / Double(max(calls, 1))
        return max(1, Int(Double(minimumBatch.nanoseconds) / perCall))
    }

    func timePerCall(_ body: () -> Void, batch: Int, clock: ContinuousClock) -> Double {
        let start = clock.now
        for _ in 0..<batch { body() }
        return Double((clock.now - start).nanoseconds) / Double(batch)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Keeps a value alive so the optimiser cannot drop the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
