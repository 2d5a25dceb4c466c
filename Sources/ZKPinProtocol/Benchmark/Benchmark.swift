import Foundation
import ZKPinMath

/// One measured operation.
public struct BenchmarkResult: Sendable, Codable, Equatable {
    public var curve: String
    public var op: String
    public var medianNanoseconds: Double

    public var operationsPerSecond: Double { medianNanoseconds > 0 ? 1e9 / medianNanoseconds : 0 }

    enum CodingKeys: String, CodingKey { case curve, op, medianNanoseconds = "median_ns", operationsPerSecond = "ops_per_s" }

    public init(curve: String, op: String, medianNanoseconds: Double) {
        self.curve = curve; self.op = op; self.medianNanoseconds = medianNanoseconds
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        curve = try container.decode(String.self, forKey: .curve)
        op = try container.decode(String.self, forKey: .op)
        medianNanoseconds = try container.decode(Double.self, forKey: .medianNanoseconds)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(curve, forKey: .curve)
        try container.encode(op, forKey: .op)
        try container.encode(medianNanoseconds.rounded(), forKey: .medianNanoseconds)
        try container.encode(operationsPerSecond.rounded(), forKey: .operationsPerSecond)
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
        let warmUpEnd = clock.now.advanced(by: warmUp)
        var calls = 0
        while clock.now < warmUpEnd { body(); calls += 1 }
        // Batch size: enough calls to fill minimumBatch at the warm-up rate.
        let perCall = Double(warmUp.nanoseconds) / Double(max(calls, 1))
        let batch = max(1, Int(Double(minimumBatch.nanoseconds) / perCall))
        var times = [Double]()
        for _ in 0..<samples {
            let start = clock.now
            for _ in 0..<batch { body() }
            times.append(Double((clock.now - start).nanoseconds) / Double(batch))
        }
        times.sort()
        return times[times.count / 2]
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
