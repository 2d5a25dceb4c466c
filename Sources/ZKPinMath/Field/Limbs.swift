/// A fixed number of 64-bit limbs held inline (little-endian: limb 0 is the least significant).
///
/// Field elements are built on these so that no arithmetic operation touches the heap; the
/// limb count is a static constant, so loops over it unroll once the generic code is
/// specialised for a curve.
public protocol LimbArray: Sendable, Hashable {
    static var count: Int { get }
    /// All limbs zero.
    init()
    subscript(index: Int) -> UInt64 { get set }
    /// a·b·R^-1 mod p; the 4- and 6-limb types have straight-line versions.
    static func montgomeryProduct(_ a: Self, _ b: Self, modulus p: Self, negativeInverse: UInt64) -> Self
    /// (a + b) mod p and (a - b) mod p for a, b < p.
    static func modularSum(_ a: Self, _ b: Self, modulus p: Self) -> Self
    static func modularDifference(_ a: Self, _ b: Self, modulus p: Self) -> Self
}

extension LimbArray {
    @inlinable
    public init(_ words: [UInt64]) {
        precondition(words.count <= Self.count)
        self.init()
        for i in 0..<words.count { self[i] = words[i] }
    }

    @inlinable
    public var words: [UInt64] { (0..<Self.count).map { self[$0] } }

    /// Constant-time equality (no early exit on the first differing limb).
    @inlinable
    public func constantTimeEquals(_ other: Self) -> Bool {
        var difference: UInt64 = 0
        for i in 0..<Self.count { difference |= self[i] ^ other[i] }
        return difference == 0
    }

    /// Whether all limbs are zero, without an early exit.
    @inlinable
    public var isZero: Bool {
        var bits: UInt64 = 0
        for i in 0..<Self.count { bits |= self[i] }
        return bits == 0
    }

    /// `mask` all ones selects `a`, all zeros selects `b`; no branch on the mask.
    @inlinable
    public static func select(_ mask: UInt64, _ a: Self, _ b: Self) -> Self {
        var out = Self()
        for i in 0..<count { out[i] = (a[i] & mask) | (b[i] & ~mask) }
        return out
    }
}

/// Four limbs: fields up to 256 bits (BN254CX).
@frozen
public struct Limbs4: LimbArray {
    public var storage: (UInt64, UInt64, UInt64, UInt64)

    @inlinable public static var count: Int { 4 }

    @inlinable public init() { storage = (0, 0, 0, 0) }
    @inlinable public init(storage: (UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }

    @inlinable
    public subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            withUnsafeBytes(of: storage) { $0.load(fromByteOffset: index &* 8, as: UInt64.self) }
        }
        @inline(__always) set {
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: index &* 8, as: UInt64.self) }
        }
    }

    @inlinable public static func == (a: Limbs4, b: Limbs4) -> Bool { a.constantTimeEquals(b) }
    public func hash(into hasher: inout Hasher) { for i in 0..<4 { hasher.combine(self[i]) } }
}

/// Six limbs: fields up to 384 bits (BLS12-381).
@frozen
public struct Limbs6: LimbArray {
    public var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    @inlinable public static var count: Int { 6 }

    @inlinable public init() { storage = (0, 0, 0, 0, 0, 0) }
    @inlinable public init(storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }

    @inlinable
    public subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            withUnsafeBytes(of: storage) { $0.load(fromByteOffset: index &* 8, as: UInt64.self) }
        }
        @inline(__always) set {
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: index &* 8, as: UInt64.self) }
        }
    }

    @inlinable public static func == (a: Limbs6, b: Limbs6) -> Bool { a.constantTimeEquals(b) }
    public func hash(into hasher: inout Hasher) { for i in 0..<6 { hasher.combine(self[i]) } }
}
