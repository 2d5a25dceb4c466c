/// An element of the prime field of `P`, held in Montgomery form in inline limbs.
@frozen
public struct Fp<P: PrimeFieldParameters>: FieldElement, Hashable, CustomStringConvertible {
    /// a·R mod p.
    public var montgomery: P.Limbs

    @inlinable @inline(__always)
    public init(montgomery: P.Limbs) { self.montgomery = montgomery }

    @inlinable public static var zero: Fp { Fp(montgomery: P.Limbs()) }
    @inlinable public static var one: Fp { Fp(montgomery: P.montgomeryOne) }

    /// The element with canonical limbs `value` (must be < p).
    @inlinable
    public init(canonical value: P.Limbs) {
        montgomery = P.montgomeryProduct(value, P.rSquared)
    }

    /// The residue of any integer modulo p.
    public init(_ value: BigInt) {
        self.init(canonical: P.Limbs(value.mod(P.modulusBig).limbs(count: P.Limbs.count)))
    }

    public init(_ value: Int) { self.init(BigInt(value)) }

    /// Decodes `P.byteCount` big-endian bytes; nil when the length is wrong or the value >= p.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == P.byteCount, let value = Self.decoded(Array(bytes)) else { return nil }
        self = value
    }

    /// Specialised for both fields: the generic loop over a collection cost about as much as
    /// ten field products.
    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    static func decoded(_ bytes: [UInt8]) -> Fp? {
        var limbs = P.Limbs()
        for index in bytes.indices {
            let offset = bytes.count - 1 - index
            guard offset / 8 < P.Limbs.count else {
                if bytes[index] != 0 { return nil }
                continue
            }
            limbs[offset / 8] |= UInt64(bytes[index]) << UInt64(8 * (offset % 8))
        }
        guard LimbArithmetic.lessThan(limbs, P.modulus) else { return nil }
        return Fp(canonical: limbs)
    }

    /// The canonical (non-Montgomery) limbs.
    @inlinable
    public var canonical: P.Limbs {
        var one = P.Limbs()
        one[0] = 1
        return P.montgomeryProduct(montgomery, one)
    }

    var bigInt: BigInt { BigInt(limbs: canonical.words) }

    /// `P.byteCount` big-endian bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        appendBytes(to: &out)
        return out
    }

    /// Appends the `P.byteCount` big-endian bytes to `out`. Specialised for both fields: the
    /// generic map over the bytes cost about 7,700 instructions per element on BLS12-381, more
    /// than two field products per encoded coordinate.
    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    public func appendBytes(to out: inout [UInt8]) {
        let limbs = canonical
        out.reserveCapacity(out.count + P.byteCount)
        for index in 0..<P.byteCount {
            let offset = P.byteCount - 1 - index
            out.append(offset / 8 < P.Limbs.count ? UInt8(truncatingIfNeeded: limbs[offset / 8] >> UInt64(8 * (offset % 8))) : 0)
        }
    }

    public var description: String { bytes.hexString }

    // MARK: Arithmetic

    @inlinable @inline(__always)
    public static func + (a: Fp, b: Fp) -> Fp {
        Fp(montgomery: P.modularSum(a.montgomery, b.montgomery))
    }

    @inlinable @inline(__always)
    public static func - (a: Fp, b: Fp) -> Fp {
        Fp(montgomery: P.modularDifference(a.montgomery, b.montgomery))
    }

    @inlinable @inline(__always)
    public static func * (a: Fp, b: Fp) -> Fp {
        Fp(montgomery: P.montgomeryProduct(a.montgomery, b.montgomery))
    }

    @inlinable @inline(__always)
    public static func sumOfProducts(_ a: Fp, _ b: Fp, _ c: Fp, _ d: Fp) -> Fp {
        Fp(montgomery: P.sumOfProducts(a.montgomery, b.montgomery, c.montgomery, d.montgomery))
    }

    @inlinable @inline(__always)
    public static func differenceOfProducts(_ a: Fp, _ b: Fp, _ c: Fp, _ d: Fp) -> Fp {
        Fp(montgomery: P.differenceOfProducts(a.montgomery, b.montgomery, c.montgomery, d.montgomery))
    }

    @inlinable @inline(__always)
    public static prefix func - (a: Fp) -> Fp {
        Fp(montgomery: P.modularDifference(P.Limbs(), a.montgomery))
    }

    @inlinable public var squared: Fp { self * self }
    @inlinable public var doubled: Fp { self + self }
    @inlinable public var isZero: Bool { montgomery.isZero }

    @inlinable
    public static func == (a: Fp, b: Fp) -> Bool { a.montgomery == b.montgomery }

    @inlinable
    public static func select(_ mask: UInt64, _ a: Fp, _ b: Fp) -> Fp {
        Fp(montgomery: LimbArithmetic.select(mask, a.montgomery, b.montgomery))
    }

    /// Left to right from the top bit of `small`, a public constant: inlined where it is a
    /// literal (3b, 3b'), the loop unrolls into its doublings and sums (12: four operations).
    @inlinable @inline(__always)
    public func times(small: UInt64) -> Fp {
        guard small > 0 else { return .zero }
        var result = self
        var bit = 62 - small.leadingZeroBitCount
        while bit >= 0 {
            result = result.doubled
            if (small >> UInt64(bit)) & 1 == 1 { result = result + self }
            bit -= 1
        }
        return result
    }

    /// The inverse (zero for zero): the blinded extended Euclid of `blindedInverse()` when one
    /// is installed (`FieldInversion`), else `constantTimeInverse`.
    public var inverse: Fp { blindedInverse() }

    /// a^(p-2) (zero for zero): Fermat's inverse over the Montgomery products, without GMP.
    /// The window sequence of `power(limbs:)` follows the public exponent alone, so the time
    /// does not depend on the value; about ten times slower than `inverse`.
    public var constantTimeInverse: Fp { fermatInverse() }

    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    package func fermatInverse() -> Fp { power(limbs: P.inverseExponent) }

    /// A square root when one exists (p = 3 mod 4 on both curves: a^((p+1)/4)).
    public var squareRoot: Fp? { root() }

    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    func root() -> Fp? {
        let root = power(limbs: P.squareRootExponent)
        return root.squared == self ? root : nil
    }

    /// Whether the canonical value is odd (the "sign" used to pick a square root).
    public var isOdd: Bool { canonical[0] & 1 == 1 }
}
