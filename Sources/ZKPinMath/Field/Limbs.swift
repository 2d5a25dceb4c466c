/// A fixed number of 64-bit limbs held inline (little-endian: limb 0 is the least significant).
///
/// Field elements are built on these so that no arithmetic operation touches the heap; the
/// limb count is a static constant, so loops over it unroll once the generic code is
/// specialised for a curve. `storage` is a tuple of `count` `UInt64`s: the limbs are read and
/// written through its bytes, so the 4- and 6-limb types share every member but the tuple.
public protocol LimbArray: LimbContainer, Sendable, Hashable {
    associatedtype Storage
    static var count: Int { get }
    var storage: Storage { get set }
    /// All limbs zero.
    init()
    /// a·b·R^-1 mod p; the 4- and 6-limb types have straight-line versions.
    static func montgomeryProduct(_ a: Self, _ b: Self, modulus p: Self, negativeInverse: UInt64) -> Self
    /// (a + b) mod p and (a - b) mod p for a, b < p.
    static func modularSum(_ a: Self, _ b: Self, modulus p: Self) -> Self
    static func modularDifference(_ a: Self, _ b: Self, modulus p: Self) -> Self
}

extension LimbArray {
    @inlinable public var count: Int { Self.count }

    @inlinable
    public subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            withUnsafeBytes(of: storage) { $0.load(fromByteOffset: index &* 8, as: UInt64.self) }
        }
        @inline(__always) set {
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: index &* 8, as: UInt64.self) }
        }
    }

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
    public var isZero: Bool { LimbArithmetic.orOfLimbs(self) == 0 }

    @inlinable public static func == (a: Self, b: Self) -> Bool { a.constantTimeEquals(b) }
    @inlinable public func hash(into hasher: inout Hasher) { for i in 0..<Self.count { hasher.combine(self[i]) } }
}

/// Four limbs: fields up to 256 bits (BN254CX).
@frozen
public struct Limbs4: LimbArray {
    public var storage: (UInt64, UInt64, UInt64, UInt64)

    @inlinable public static var count: Int { 4 }

    @inlinable public init() { storage = (0, 0, 0, 0) }
    @inlinable public init(storage: (UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }
}

/// Six limbs: fields up to 384 bits (BLS12-381).
@frozen
public struct Limbs6: LimbArray {
    public var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    @inlinable public static var count: Int { 6 }

    @inlinable public init() { storage = (0, 0, 0, 0, 0, 0) }
    @inlinable public init(storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }
}
