/// Randomness for tests: deterministic from a seed that a failing test prints, so any failure
/// can be replayed with `ZKPIN_TEST_SEED=<seed> swift test --filter ...`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    var state: UInt64

    /// The seed from `ZKPIN_TEST_SEED` when set, else a fresh one.
    public init() {
        let given = getenvString("ZKPIN_TEST_SEED").flatMap { UInt64($0) }
        self.init(seed: given ?? UInt64.random(in: 0...UInt64.max))
    }

    public init(seed: UInt64) { self.seed = seed; state = seed }

    /// SplitMix64: fast, and every seed gives a full-period stream.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// "seed N (replay with ZKPIN_TEST_SEED=N)", for assertion messages.
    public var replay: String { "seed \(seed) (replay with ZKPIN_TEST_SEED=\(seed))" }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func getenvString(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}
