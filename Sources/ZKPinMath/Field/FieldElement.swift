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
    var isZero: Bool { get }
    /// `mask` all ones selects `a`, all zeros `b`, without branching.
    static func select(_ mask: UInt64, _ a: Self, _ b: Self) -> Self
    /// Multiplication by a small constant (curve coefficients such as 3b).
    func times(small: UInt64) -> Self
}

extension FieldElement {
    @inlinable public static func += (a: inout Self, b: Self) { a = a + b }
    @inlinable public static func -= (a: inout Self, b: Self) { a = a - b }
    @inlinable public static func *= (a: inout Self, b: Self) { a = a * b }

    /// Square-and-multiply by a public exponent given as little-endian limbs.
    @inlinable
    public func power(limbs exponent: [UInt64]) -> Self {
        var result = Self.one
        var started = false
        for limb in exponent.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                if started { result = result.squared }
                if (limb >> UInt64(bit)) & 1 == 1 {
                    result = started ? result * self : self
                    started = true
                }
            }
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
