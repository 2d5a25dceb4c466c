/// A secret scalar mod r (a master-secret share, the client's x, a PIN) on fixed-width limbs:
/// parsed, reduced, added, negated and serialised by `LimbArithmetic` code with a fixed number of
/// steps, never by GMP, whose integers trim to their size and branch on it (docs/developer.md,
/// "Security model"). The constant-time multiplications (`Point.multiplied(bySecret:)`,
/// `multipliedInG1(bySecret:)`) take it as it is.
public struct SecretScalar<C: PairingCurve>: Sendable {
    /// The value, below r, in `C.orderLimbs.count` little-endian limbs.
    public private(set) var limbs: [UInt64]

    init(limbs: [UInt64]) { self.limbs = limbs }

    /// Limbs already below r (for the GMP reference inverse of the tests).
    package init(canonicalLimbs limbs: [UInt64]) { self.init(limbs: limbs) }

    /// A value already below r (a PIN, for instance: 0...9999).
    public init(_ small: UInt64) {
        var limbs = [UInt64](repeating: 0, count: C.orderLimbs.count)
        limbs[0] = small
        precondition(LimbArithmetic.lessThan(limbs, C.orderLimbs), "not below r")
        self.init(limbs: limbs)
    }

    /// The big-endian bytes (of any public length) reduced mod r with one step per bit: shift
    /// in the bit (x + x + bit), then subtract r unless that borrows (selected by mask).
    /// 2x + 1 < 2r, so one subtraction per step keeps the value below r.
    package init(reducing bytes: some Collection<UInt8>) {
        let modulus = C.orderLimbs + [0]  // one limb of headroom for 2x + 1
        var value = [UInt64](repeating: 0, count: modulus.count)
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                let bit = UInt64(byte >> UInt8(shift)) & 1
                value = LimbArithmetic.reducedOnce(LimbArithmetic.add(value, value, carry: bit).0, modulus: modulus)
            }
        }
        self.init(limbs: Array(value[0..<(modulus.count - 1)]))
        for i in value.indices { value[i] = 0 }
    }

    /// The big-endian bytes as a scalar when their value is below r, nil otherwise (the verdict
    /// is public: such input is refused; the comparison itself reads every limb).
    public init?(canonical bytes: some Collection<UInt8>) {
        var limbs = [UInt64](repeating: 0, count: C.orderLimbs.count)
        // Leading bytes past the limbs must be zero (a BLS12-381 scalar has 48 bytes, r 255 bits).
        let extra = max(0, bytes.count - 8 * limbs.count)
        var high: UInt8 = 0
        for byte in bytes.prefix(extra) { high |= byte }
        limbs = LimbArithmetic.limbs(bigEndian: bytes.dropFirst(extra), count: limbs.count)
        let below = LimbArithmetic.lessThan(limbs, C.orderLimbs)
        guard high == 0 && below else {
            for i in limbs.indices { limbs[i] = 0 }
            return nil
        }
        self.init(limbs: limbs)
    }

    /// For public values and tests (vector files, benchmarks): GMP reduces and serialises it.
    public init(public value: BigInt) {
        self.init(limbs: value.mod(C.order).limbs(count: C.orderLimbs.count))
    }

    /// Uniform in [1, r) from the system CSPRNG: random limbs cut to r's bit length, drawn
    /// again while not in range (fewer than two draws on average; a rejected draw is discarded,
    /// so the number of draws says nothing about the value kept).
    public static func random() -> SecretScalar {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> SecretScalar {
        let order = C.orderLimbs
        let topBits = 64 - order[order.count - 1].leadingZeroBitCount
        let topMask = topBits == 64 ? UInt64.max : (UInt64(1) << UInt64(topBits)) - 1
        while true {
            var limbs = (0..<order.count).map { _ in generator.next() }
            limbs[order.count - 1] &= topMask
            if LimbArithmetic.lessThan(limbs, order) && LimbArithmetic.zeroMask(limbs) == 0 {
                return SecretScalar(limbs: limbs)
            }
            for i in limbs.indices { limbs[i] = 0 }
        }
    }

    /// The value as `C.scalarByteCount` big-endian bytes.
    public var bytes: [UInt8] { LimbArithmetic.bigEndianBytes(limbs, count: C.scalarByteCount) }

    /// Whether the value is 0 (every limb read).
    public var isZero: Bool { LimbArithmetic.zeroMask(limbs) != 0 }

    /// (a + b) mod r.
    public static func + (a: SecretScalar, b: SecretScalar) -> SecretScalar {
        SecretScalar(limbs: LimbArithmetic.modularSum(a.limbs, b.limbs, modulus: C.orderLimbs))
    }

    /// (0 - a) mod r: r - a, or 0 for 0 (r added back by mask).
    public static prefix func - (a: SecretScalar) -> SecretScalar {
        let zero = LimbArithmetic.zero(like: a.limbs)
        return SecretScalar(limbs: LimbArithmetic.modularDifference(zero, a.limbs, modulus: C.orderLimbs))
    }

    /// Overwrites the limbs with zeros (for values that must not outlive their use).
    public mutating func wipe() {
        for i in limbs.indices { limbs[i] = 0 }
    }
}
