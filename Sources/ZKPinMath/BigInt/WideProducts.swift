/// Products and sums of 64-bit limbs wider than 64 bits, without `UInt128` (an iOS 18 and
/// macOS 15 type: ZKPinKit runs on iOS 16 and macOS 13).
extension UInt64 {
    /// a·b + c + d as (high, low); it never exceeds 128 bits. The carries are `Bool`s that the
    /// compiler turns into add/adc: the field products use this (their instruction count is
    /// that of the `UInt128` form; `tools/check-constant-time` checks they do not branch).
    @inlinable @inline(__always)
    public static func productSum(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let (low1, carry1) = low.addingReportingOverflow(c)
        let (low2, carry2) = low1.addingReportingOverflow(d)
        return (high &+ (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0), low2)
    }

    /// As `productSum`, with every carry computed from the bits (`carryOut`), no `Bool`: for
    /// the secret scalars' arithmetic, where `Bool` carries once compiled to branches.
    @inlinable @inline(__always)
    public static func productSumWithoutFlags(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
        let (high, low) = a.multipliedFullWidth(by: b)
        let low1 = low &+ c
        let low2 = low1 &+ d
        return (high &+ carryOut(low, c, low1) &+ carryOut(low1, d, low2), low2)
    }

    /// x + y + carry (carry 0 or 1) as (carry out, sum), without `Bool`.
    @inlinable @inline(__always)
    public static func sumWithoutFlags(_ x: UInt64, _ y: UInt64, carry: UInt64) -> (carry: UInt64, sum: UInt64) {
        let sum = x &+ y &+ carry
        return (carryOut(x, y, sum), sum)
    }

    /// The carry out of the top bit of x + y (+ a carry in) given their sum: the top bits of x
    /// and y both set, or either set and the sum's clear (Hacker's Delight 2-13).
    @inlinable @inline(__always)
    public static func carryOut(_ x: UInt64, _ y: UInt64, _ sum: UInt64) -> UInt64 {
        ((x & y) | ((x | y) & ~sum)) >> 63
    }
}
