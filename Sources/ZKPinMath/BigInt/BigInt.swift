/// An arbitrary-precision integer in pure Swift (sign and magnitude over 64-bit limbs), with
/// value semantics.
///
/// Used outside the hot loops: parsing and printing, scalar arithmetic mod r, reductions of
/// hashes, exponents, curve constants and random scalars. Written for public values: its loops
/// and its division branch on the values (secrets live in `SecretScalar` and `Fp`). The limbs
/// are zeroed when the last reference goes away all the same. GMP checks it in the tests.
public struct BigInt: Sendable, Hashable, Comparable, CustomStringConvertible {
    @usableFromInline let storage: LimbStorage
    /// Whether the value is below zero (never for zero).
    let negative: Bool

    var magnitudeLimbs: [UInt64] { storage.limbs }

    init(magnitude: [UInt64], negative: Bool) {
        let trimmed = Magnitude.trimmed(magnitude)
        storage = LimbStorage(trimmed)
        self.negative = negative && !trimmed.isEmpty
    }

    public init(_ value: Int) {
        self.init(magnitude: [value.magnitude.toUInt64], negative: value < 0)
    }

    public init(_ value: UInt64) { self.init(magnitude: [value], negative: false) }

    /// Parses hexadecimal digits (an optional `0x` prefix and a leading `-` are accepted).
    public init?(hex text: String) {
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("-") { negative = true; digits = digits.dropFirst() }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
        self.init(parsing: digits, base: 16, negative: negative)
    }

    /// Parses decimal digits with an optional leading `-`.
    public init?(decimal text: String) {
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("-") { negative = true; digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        self.init(parsing: digits, base: 10, negative: negative)
    }

    private init(parsing digits: Substring, base: UInt64, negative: Bool) {
        var value: [UInt64] = []
        for character in digits {
            let digit = UInt64(character.hexDigitValue!)
            value = Magnitude.sum(Magnitude.product(value, [base]), digit == 0 ? [] : [digit])
        }
        self.init(magnitude: value, negative: negative)
    }

    /// An unsigned big-endian byte string.
    public init<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        var limbs = [UInt64](repeating: 0, count: (bytes.count + 7) / 8)
        for (index, byte) in bytes.reversed().enumerated() {
            limbs[index / 8] |= UInt64(byte) << UInt64(8 * (index % 8))
        }
        self.init(magnitude: limbs, negative: false)
        for i in limbs.indices { limbs[i] = 0 }
    }

    /// Little-endian 64-bit limbs.
    package init(limbs: [UInt64]) { self.init(magnitude: limbs, negative: false) }

    public static let zero = BigInt(0)
    public static let one = BigInt(1)

    // MARK: Inspection

    public var signum: Int { negative ? -1 : (magnitudeLimbs.isEmpty ? 0 : 1) }
    public var isZero: Bool { magnitudeLimbs.isEmpty }
    public var isNegative: Bool { negative }
    /// |self|.
    public var magnitude: BigInt { negative ? -self : self }
    public var isOdd: Bool { (magnitudeLimbs.first ?? 0) & 1 == 1 }

    /// Number of bits of |self| (0 for zero).
    public var bitWidth: Int { Magnitude.bitWidth(magnitudeLimbs) }

    /// Bit `index` of |self| (two's complement is never needed here).
    public func bit(_ index: Int) -> Bool {
        let limbs = magnitudeLimbs
        guard index / 64 < limbs.count else { return false }
        return (limbs[index / 64] >> UInt64(index % 64)) & 1 == 1
    }

    /// The value as an `Int`, or nil when it does not fit.
    public var intValue: Int? {
        let limbs = magnitudeLimbs
        guard limbs.count <= 1 else { return nil }
        let value = limbs.first ?? 0
        if negative { return value <= UInt64(Int.max) + 1 ? Int(truncatingIfNeeded: 0 &- value) : nil }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// Big-endian bytes of |self|, left-padded with zeros to `count`. Traps if it does not fit.
    public func bytes(count: Int) -> [UInt8] {
        let needed = (bitWidth + 7) / 8
        precondition(needed <= count, "value needs \(needed) bytes, only \(count) given")
        let limbs = magnitudeLimbs
        var out = [UInt8](repeating: 0, count: count)
        for index in 0..<needed {
            out[count - 1 - index] = UInt8(truncatingIfNeeded: limbs[index / 8] >> UInt64(8 * (index % 8)))
        }
        return out
    }

    /// Minimal big-endian bytes of |self| (empty for zero).
    public var bytes: [UInt8] { bytes(count: (bitWidth + 7) / 8) }

    /// Little-endian 64-bit limbs of |self|, zero-padded to `count`. Traps if it does not fit.
    public func limbs(count: Int) -> [UInt64] {
        let limbs = magnitudeLimbs
        precondition(limbs.count <= count, "value needs more than \(count) limbs")
        return limbs + [UInt64](repeating: 0, count: count - limbs.count)
    }

    public func hex(byteCount: Int) -> String { bytes(count: byteCount).hexString }

    public var description: String { string(base: 10) }

    /// Digits in base 2...36 (lowercase), with a leading `-` when negative.
    public func string(base: Int32) -> String {
        precondition((2...36).contains(base), "base out of range")
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var digits: [UInt8] = []
        var rest = magnitudeLimbs
        while !rest.isEmpty {
            let (quotient, remainder) = Magnitude.divided(rest, by: [UInt64(base)])
            digits.append(alphabet[Int(remainder.first ?? 0)])
            rest = quotient
        }
        if digits.isEmpty { digits = [UInt8(ascii: "0")] }
        if negative { digits.append(UInt8(ascii: "-")) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    // MARK: Arithmetic

    public static func + (a: BigInt, b: BigInt) -> BigInt { sum(a, b.magnitudeLimbs, negative: b.negative) }

    public static func - (a: BigInt, b: BigInt) -> BigInt { sum(a, b.magnitudeLimbs, negative: !b.negative && !b.isZero) }

    /// a + (±b): the sign of b given apart, so that a difference allocates no negated copy.
    private static func sum(_ a: BigInt, _ b: [UInt64], negative bNegative: Bool) -> BigInt {
        if a.negative == bNegative {
            return BigInt(magnitude: Magnitude.sum(a.magnitudeLimbs, b), negative: a.negative)
        }
        // Opposite signs: the larger magnitude's sign.
        if Magnitude.compare(a.magnitudeLimbs, b) >= 0 {
            return BigInt(magnitude: Magnitude.difference(a.magnitudeLimbs, b), negative: a.negative)
        }
        return BigInt(magnitude: Magnitude.difference(b, a.magnitudeLimbs), negative: bNegative)
    }

    public static func * (a: BigInt, b: BigInt) -> BigInt {
        BigInt(magnitude: Magnitude.product(a.magnitudeLimbs, b.magnitudeLimbs), negative: a.negative != b.negative)
    }

    public static prefix func - (a: BigInt) -> BigInt {
        BigInt(magnitude: a.magnitudeLimbs, negative: !a.negative)
    }

    /// Floor division (rounds towards minus infinity).
    public static func / (a: BigInt, b: BigInt) -> BigInt {
        precondition(!b.isZero, "division by zero")
        let (q, r) = Magnitude.divided(a.magnitudeLimbs, by: b.magnitudeLimbs)
        let quotient = BigInt(magnitude: q, negative: a.negative != b.negative)
        // Truncation rounded towards zero: one less when the signs differ and it was inexact.
        return a.negative != b.negative && !r.isEmpty ? quotient - .one : quotient
    }

    /// The non-negative residue of `self` modulo `m` (m > 0).
    public func mod(_ m: BigInt) -> BigInt {
        precondition(m.signum > 0, "modulus must be positive")
        let remainder = BigInt(magnitude: Magnitude.divided(magnitudeLimbs, by: m.magnitudeLimbs).remainder, negative: false)
        return negative && !remainder.isZero ? m - remainder : remainder
    }

    /// `self^exponent mod m` (exponent >= 0, m > 0), square and multiply from the top bit.
    public func power(_ exponent: BigInt, modulus m: BigInt) -> BigInt {
        precondition(!exponent.isNegative && m.signum > 0)
        var result = BigInt.one.mod(m)
        let base = mod(m)
        for index in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
            result = (result * result).mod(m)
            if exponent.bit(index) { result = (result * base).mod(m) }
        }
        return result
    }

    /// `self^exponent` for a small exponent.
    public func power(_ exponent: Int) -> BigInt {
        precondition(exponent >= 0)
        var result = BigInt.one, square = self, rest = exponent
        while rest > 0 {
            if rest & 1 == 1 { result = result * square }
            rest >>= 1
            if rest > 0 { square = square * square }
        }
        return result
    }

    /// The inverse modulo `m` (extended Euclid), or nil when gcd(self, m) != 1.
    package func inverse(modulus m: BigInt) -> BigInt? {
        var (r0, r1) = (m.magnitude, mod(m.magnitude))
        var (t0, t1) = (BigInt.zero, BigInt.one)
        while !r1.isZero {
            let q = r0 / r1
            (r0, r1) = (r1, r0 - q * r1)
            (t0, t1) = (t1, t0 - q * t1)
        }
        guard r0 == .one else { return nil }
        return t0.mod(m.magnitude)
    }

    /// Whether `self` is a quadratic residue modulo the odd prime `p` (Legendre symbol >= 0,
    /// by Euler's criterion).
    func isQuadraticResidue(modulo p: BigInt) -> Bool {
        let symbol = power((p - .one).shiftedRight(1), modulus: p)
        return symbol != p - .one
    }

    /// Floor of self / 2^bits.
    package func shiftedRight(_ bits: Int) -> BigInt {
        let shifted = BigInt(magnitude: Magnitude.shiftedRight(magnitudeLimbs, by: bits), negative: negative)
        // Rounding towards minus infinity: one less when bits were dropped from a negative value.
        guard negative, shifted.shiftedLeft(bits) != self else { return shifted }
        return shifted - .one
    }

    package func shiftedLeft(_ bits: Int) -> BigInt {
        BigInt(magnitude: Magnitude.shiftedLeft(magnitudeLimbs, by: bits), negative: negative)
    }

    // MARK: Comparison and hashing

    public static func == (a: BigInt, b: BigInt) -> Bool {
        a.negative == b.negative && a.magnitudeLimbs == b.magnitudeLimbs
    }

    public static func < (a: BigInt, b: BigInt) -> Bool {
        if a.negative != b.negative { return a.negative }
        let order = Magnitude.compare(a.magnitudeLimbs, b.magnitudeLimbs)
        return a.negative ? order > 0 : order < 0
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(signum)
        hasher.combine(bytes)
    }

    // MARK: Randomness

    /// A uniform random integer in [lower, upper) drawn from the system's CSPRNG.
    public static func random(in lower: BigInt, _ upper: BigInt) -> BigInt {
        var generator = SystemRandomNumberGenerator()
        return random(in: lower, upper, using: &generator)
    }

    /// A uniform random integer in [lower, upper) by rejection sampling from `generator`.
    public static func random<G: RandomNumberGenerator>(
        in lower: BigInt, _ upper: BigInt,
        using generator: inout G
    ) -> BigInt {
        let span = upper - lower
        precondition(span.signum > 0, "empty range")
        let bits = span.bitWidth
        let limbCount = (bits + 63) / 64
        let topMask: UInt64 = bits % 64 == 0 ? ~0 : (1 << UInt64(bits % 64)) - 1
        while true {
            var words = (0..<limbCount).map { _ in generator.next() as UInt64 }
            words[limbCount - 1] &= topMask
            let candidate = BigInt(limbs: words)
            for i in words.indices { words[i] = 0 }
            if candidate < span { return lower + candidate }
        }
    }
}

/// The limbs of one value, zeroed when the last reference goes away (some values are secret
/// scalars in the tools and tests).
@usableFromInline final class LimbStorage: @unchecked Sendable {
    // Written only by init and deinit: immutable while shared.
    private(set) var limbs: [UInt64]

    init(_ limbs: [UInt64]) { self.limbs = limbs }

    deinit {
        limbs.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
}

extension UInt {
    fileprivate var toUInt64: UInt64 { UInt64(self) }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal text.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Decodes hexadecimal text (either case, even length, no prefix); nil on anything else.
    public init?(hex text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        self = out
    }
}
