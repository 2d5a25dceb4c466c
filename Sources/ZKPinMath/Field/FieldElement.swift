/// What curve arithmetic needs of a coordinate field (Fp for G1, Fp2 for G2).
public protocol FieldElement: Sendable, Equatable {
    static var zero: Self { get }
    static var one: Self { get }
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static prefix func - (a: Self) -> Self
    var squared: Self { get }
    var doubled: Self { get }
    /// The multiplicative inverse; zero maps to zero.
    var inverse: Self { get }
    /// The same inverse without GMP, in a time that does not depend on the value (Fermat).
    var constantTimeInverse: Self { get }
    var isZero: Bool { get }
    /// `mask` all ones selects `a`, all zeros `b`, without branching.
    static func select(_ mask: UInt64, _ a: Self, _ b: Self) -> Self
    /// Multiplication by a small constant (curve coefficients such as 3b).
    func times(small: UInt64) -> Self
    /// a·b + c·d and a·b - c·d: `Fp` on the generated fields reduces the two products once.
    static func sumOfProducts(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self
    static func differenceOfProducts(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self
}

extension FieldElement {
    @inlinable @inline(__always)
    public static func sumOfProducts(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self { a * b + c * d }

    @inlinable @inline(__always)
    public static func differenceOfProducts(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self { a * b - c * d }

    @inlinable public static func += (a: inout Self, b: Self) { a = a + b }
    @inlinable public static func -= (a: inout Self, b: Self) { a = a - b }
    @inlinable public static func *= (a: inout Self, b: Self) { a = a * b }

    /// x^e for a public exponent given as little-endian limbs: left-to-right sliding windows
    /// of up to four bits over the odd powers x, x^3, ..., x^15 (about one multiplication per
    /// five bits instead of one per two). The operations depend only on the exponent, so a
    /// secret base is safe; the table lives in a tuple, off the heap.
    @inlinable
    public func power(limbs exponent: [UInt64]) -> Self {
        func bit(_ index: Int) -> UInt64 { (exponent[index / 64] >> UInt64(index % 64)) & 1 }
        var top = exponent.count * 64 - 1
        while top >= 0 && bit(top) == 0 { top -= 1 }
        guard top >= 0 else { return .one }
        let square = squared
        var building = (self, self, self, self, self, self, self, self)
        withUnsafeMutableBytes(of: &building) { raw in
            let table = raw.bindMemory(to: Self.self)
            for k in 1..<8 { table[k] = table[k - 1] * square }
        }
        let odd = building
        func entry(_ value: UInt64) -> Self {
            withUnsafeBytes(of: odd) { $0.bindMemory(to: Self.self)[Int(value / 2)] }
        }
        var result = Self.one
        var started = false
        var index = top
        while index >= 0 {
            if bit(index) == 0 {
                if started { result = result.squared }
                index -= 1
                continue
            }
            // The longest window of at most four bits starting here and ending in a one.
            var low = max(index - 3, 0)
            while bit(low) == 0 { low += 1 }
            var value: UInt64 = 0
            for position in stride(from: index, through: low, by: -1) {
                value = (value << 1) | bit(position)
                if started { result = result.squared }
            }
            result = started ? result * entry(value) : entry(value)
            started = true
            index = low - 1
        }
        return result
    }

    /// Power by a public non-negative big integer.
    @inlinable
    public func power(_ exponent: BigInt) -> Self {
        precondition(!exponent.isNegative)
        return power(limbs: exponent.limbs(count: max(1, (exponent.bitWidth + 63) / 64)))
    }
}
