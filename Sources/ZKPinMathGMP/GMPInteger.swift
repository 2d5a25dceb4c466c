import CGMP
import ZKPinMath

/// An arbitrary-precision integer over GMP's `mpz_t`, with value semantics: the oracle the
/// pure-Swift `BigInt` and the field are tested against (the client's path has no GMP). Each
/// value owns one `mpz_t`, freed (and its limbs zeroed first) when the last reference goes away.
public struct GMPInteger: Sendable, Hashable, Comparable, CustomStringConvertible {
    let storage: MPZ

    init(storage: MPZ) { self.storage = storage }

    public init(_ value: Int) {
        storage = MPZ()
        __gmpz_set_si(storage.pointer, value)
    }

    public init(_ value: UInt64) {
        storage = MPZ()
        __gmpz_set_ui(storage.pointer, UInt(value))
    }

    /// Parses hexadecimal digits (an optional `0x` prefix and a leading `-` are accepted).
    public init?(hex text: String) {
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("-") { negative = true; digits = digits.dropFirst() }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
        self.init(parsing: String(digits), base: 16, negative: negative)
    }

    /// Parses decimal digits with an optional leading `-`.
    public init?(decimal text: String) {
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("-") { negative = true; digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        self.init(parsing: String(digits), base: 10, negative: negative)
    }

    private init?(parsing digits: String, base: Int32, negative: Bool) {
        storage = MPZ()
        guard __gmpz_set_str(storage.pointer, digits, base) == 0 else { return nil }
        if negative { __gmpz_neg(storage.pointer, storage.pointer) }
    }

    /// An unsigned big-endian byte string.
    public init<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        storage = MPZ()
        let array = Array(bytes)
        if !array.isEmpty {
            array.withUnsafeBytes { raw in
                __gmpz_import(storage.pointer, array.count, 1, 1, 1, 0, raw.baseAddress)
            }
        }
    }

    /// Little-endian 64-bit limbs.
    public init(limbs: [UInt64]) {
        storage = MPZ()
        if !limbs.isEmpty {
            limbs.withUnsafeBytes { raw in
                __gmpz_import(storage.pointer, limbs.count, -1, 8, 0, 0, raw.baseAddress)
            }
        }
    }

    public static let zero = GMPInteger(0)
    public static let one = GMPInteger(1)

    // MARK: Inspection

    public var signum: Int { Int(__gmpz_cmp_si(storage.pointer, 0).signum()) }
    public var isZero: Bool { signum == 0 }
    public var isNegative: Bool { signum < 0 }
    /// |self|.
    public var magnitude: GMPInteger { isNegative ? -self : self }
    public var isOdd: Bool { __gmpz_tstbit(storage.pointer, 0) == 1 }

    /// Number of bits of |self| (0 for zero).
    public var bitWidth: Int { isZero ? 0 : Int(__gmpz_sizeinbase(storage.pointer, 2)) }

    /// Bit `index` of |self| (two's complement is never needed here).
    public func bit(_ index: Int) -> Bool {
        __gmpz_tstbit(storage.pointer, mp_bitcnt_t(index)) == 1
    }

    /// The value as an `Int`, or nil when it does not fit.
    public var intValue: Int? {
        guard __gmpz_fits_slong_p(storage.pointer) != 0 else { return nil }
        return __gmpz_get_si(storage.pointer)
    }

    /// Big-endian bytes of |self|, left-padded with zeros to `count`. Traps if it does not fit.
    public func bytes(count: Int) -> [UInt8] {
        let needed = (bitWidth + 7) / 8
        precondition(needed <= count, "value needs \(needed) bytes, only \(count) given")
        var out = [UInt8](repeating: 0, count: count)
        if needed > 0 {
            out.withUnsafeMutableBytes { raw in
                var written = 0
                _ = __gmpz_export(raw.baseAddress! + (count - needed), &written, 1, 1, 1, 0, storage.pointer)
            }
        }
        return out
    }

    /// Minimal big-endian bytes of |self| (empty for zero).
    public var bytes: [UInt8] { bytes(count: (bitWidth + 7) / 8) }

    /// Little-endian 64-bit limbs of |self|, zero-padded to `count`. Traps if it does not fit.
    public func limbs(count: Int) -> [UInt64] {
        precondition(bitWidth <= 64 * count, "value needs more than \(count) limbs")
        var out = [UInt64](repeating: 0, count: count)
        out.withUnsafeMutableBytes { raw in
            var written = 0
            _ = __gmpz_export(raw.baseAddress!, &written, -1, 8, 0, 0, storage.pointer)
        }
        return out
    }

    public func hex(byteCount: Int) -> String { bytes(count: byteCount).hexString }

    public var description: String { string(base: 10) }

    public func string(base: Int32) -> String {
        let size = __gmpz_sizeinbase(storage.pointer, base) + 2
        var buffer = [CChar](repeating: 0, count: size)
        __gmpz_get_str(&buffer, base, storage.pointer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Arithmetic

    private static func make(_ body: (UnsafeMutablePointer<__mpz_struct>) -> Void) -> GMPInteger {
        let result = MPZ()
        body(result.pointer)
        return GMPInteger(storage: result)
    }

    public static func + (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        make { __gmpz_add($0, a.storage.pointer, b.storage.pointer) }
    }

    public static func - (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        make { __gmpz_sub($0, a.storage.pointer, b.storage.pointer) }
    }

    public static func * (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        make { __gmpz_mul($0, a.storage.pointer, b.storage.pointer) }
    }

    public static prefix func - (a: GMPInteger) -> GMPInteger {
        make { __gmpz_neg($0, a.storage.pointer) }
    }

    /// Floor division (rounds towards minus infinity).
    public static func / (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        precondition(!b.isZero, "division by zero")
        return make { __gmpz_fdiv_q($0, a.storage.pointer, b.storage.pointer) }
    }

    /// The non-negative residue of `self` modulo `m` (m > 0).
    public func mod(_ m: GMPInteger) -> GMPInteger {
        precondition(m.signum > 0, "modulus must be positive")
        return GMPInteger.make { __gmpz_mod($0, storage.pointer, m.storage.pointer) }
    }

    /// `self^exponent mod m` (exponent >= 0, m > 0).
    public func power(_ exponent: GMPInteger, modulus m: GMPInteger) -> GMPInteger {
        precondition(!exponent.isNegative && m.signum > 0)
        return GMPInteger.make { __gmpz_powm($0, storage.pointer, exponent.storage.pointer, m.storage.pointer) }
    }

    /// `self^exponent` for a small exponent.
    public func power(_ exponent: Int) -> GMPInteger {
        precondition(exponent >= 0)
        return GMPInteger.make { __gmpz_pow_ui($0, storage.pointer, UInt(exponent)) }
    }

    /// The inverse modulo `m`, or nil when gcd(self, m) != 1.
    public func inverse(modulus m: GMPInteger) -> GMPInteger? {
        let result = MPZ()
        guard __gmpz_invert(result.pointer, storage.pointer, m.storage.pointer) != 0 else { return nil }
        return GMPInteger(storage: result)
    }

    /// Whether `self` is a quadratic residue modulo the odd prime `p` (Legendre symbol).
    public func isQuadraticResidue(modulo p: GMPInteger) -> Bool {
        __gmpz_jacobi(storage.pointer, p.storage.pointer) >= 0
    }

    public func shiftedRight(_ bits: Int) -> GMPInteger {
        GMPInteger.make { __gmpz_fdiv_q_2exp($0, storage.pointer, mp_bitcnt_t(bits)) }
    }

    public func shiftedLeft(_ bits: Int) -> GMPInteger {
        GMPInteger.make { __gmpz_mul_2exp($0, storage.pointer, mp_bitcnt_t(bits)) }
    }

    // MARK: Comparison and hashing

    public static func == (a: GMPInteger, b: GMPInteger) -> Bool {
        __gmpz_cmp(a.storage.pointer, b.storage.pointer) == 0
    }

    public static func < (a: GMPInteger, b: GMPInteger) -> Bool {
        __gmpz_cmp(a.storage.pointer, b.storage.pointer) < 0
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(signum)
        hasher.combine(bytes)
    }
}

/// Owner of one `mpz_t`.
final class MPZ: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<__mpz_struct>

    init() {
        pointer = .allocate(capacity: 1)
        __gmpz_init(pointer)
    }

    deinit {
        // Zero the limbs before freeing: many values are secret scalars.
        let allocated = Int(pointer.pointee._mp_alloc)
        if allocated > 0, let limbs = pointer.pointee._mp_d {
            limbs.update(repeating: 0, count: allocated)
        }
        __gmpz_clear(pointer)
        pointer.deallocate()
    }
}

extension GMPInteger {
    /// The same value as a `BigInt`.
    public var bigInt: BigInt { BigInt(hex: string(base: 16))! }

    public init(_ value: BigInt) { self.init(hex: value.string(base: 16))! }
}
