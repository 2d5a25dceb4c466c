#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if ZKPIN_ADX
import CFieldArithmetic

// The two curves' Montgomery products, sums, differences and Fp2 products in the x86-64
// assembly of CFieldArithmetic (built with ZKPIN_ADX: x86-64 unless ZKPIN_PORTABLE=1, see
// Package.swift): mulx with the adcx/adox carry chains, about half the instructions of the
// Swift product; branchless add/adc/cmov chains (the Swift sums compile to branches on the
// carries); the Fp2 product reduces lazily (Karatsuba on double-width products, one Montgomery
// reduction per coefficient); the Fp4 and Fp12 products and squares, the cyclotomic squaring
// and the product by a Miller-loop line are C on those primitives. Without ZKPIN_ADX the protocol's defaults, in Swift, apply.

extension BN254CXField {
    @inlinable @inline(__always)
    public static func montgomeryProduct(_ a: Limbs4, _ b: Limbs4) -> Limbs4 {
        Limbs4(storage: zk_bn254cx_montgomery_product(zk_limbs4(limb: a.storage), zk_limbs4(limb: b.storage)).limb)
    }

    @inlinable @inline(__always)
    public static func modularSum(_ a: Limbs4, _ b: Limbs4) -> Limbs4 {
        Limbs4(storage: zk_bn254cx_modular_sum(zk_limbs4(limb: a.storage), zk_limbs4(limb: b.storage)).limb)
    }

    @inlinable @inline(__always)
    public static func modularDifference(_ a: Limbs4, _ b: Limbs4) -> Limbs4 {
        Limbs4(storage: zk_bn254cx_modular_difference(zk_limbs4(limb: a.storage), zk_limbs4(limb: b.storage)).limb)
    }

    @inlinable @inline(__always)
    public static func fp2Product(_ a0: Limbs4, _ a1: Limbs4, _ b0: Limbs4, _ b1: Limbs4) -> (Limbs4, Limbs4) {
        var c0 = zk_limbs4(), c1 = zk_limbs4()
        zk_bn254cx_fp2_product(zk_limbs4(limb: a0.storage), zk_limbs4(limb: a1.storage), zk_limbs4(limb: b0.storage), zk_limbs4(limb: b1.storage),
                            &c0, &c1)
        return (Limbs4(storage: c0.limb), Limbs4(storage: c1.limb))
    }

    @inlinable @inline(__always)
    public static func fp4Product(_ a: Fp4<Self>, _ b: Fp4<Self>) -> Fp4<Self> {
        var r = Fp4<Self>.zero
        withLimbs(of: a) { a in withLimbs(of: b) { b in withMutableLimbs(of: &r) { zk_bn254cx_fp4_mul($0, a, b) } } }
        return r
    }

    @inlinable @inline(__always)
    public static func fp4Squared(_ a: Fp4<Self>) -> Fp4<Self> {
        var r = Fp4<Self>.zero
        withLimbs(of: a) { a in withMutableLimbs(of: &r) { zk_bn254cx_fp4_square($0, a) } }
        return r
    }

    @inlinable @inline(__always)
    public static func fp12CyclotomicSquared(_ a: Fp12<Self>) -> Fp12<Self> {
        var r = Fp12<Self>.zero
        withLimbs(of: a) { a in withMutableLimbs(of: &r) { zk_bn254cx_fp12_cyclotomic_square($0, a) } }
        return r
    }

    @inlinable @inline(__always)
    public static func compressedCyclotomicSquare(_ x: inout CompressedCyclotomic<Self>, times: Int) {
        withMutableLimbs(of: &x) { zk_bn254cx_compressed_square($0, Int32(times)) }
    }

    @inlinable @inline(__always)
    public static func fp12Product(_ a: Fp12<Self>, _ b: Fp12<Self>) -> Fp12<Self> {
        var r = Fp12<Self>.zero
        withLimbs(of: a) { a in withLimbs(of: b) { b in withMutableLimbs(of: &r) { zk_bn254cx_fp12_mul($0, a, b) } } }
        return r
    }

    @inlinable @inline(__always)
    public static func fp12Squared(_ a: Fp12<Self>) -> Fp12<Self> {
        var r = Fp12<Self>.zero
        withLimbs(of: a) { a in withMutableLimbs(of: &r) { zk_bn254cx_fp12_square($0, a) } }
        return r
    }

    /// The C code is generated for this field's twist (divisive); the other shape takes the Swift path.
    @inlinable @inline(__always)
    public static func fp12ProductByLine(_ f: Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, twist: TwistType) -> Fp12<Self> {
        guard twist == .divisive else { return f.sparseProduct(a: a, b: b, twist: twist) }
        var r = Fp12<Self>.zero
        let line = (a, b)
        withLimbs(of: f) { f in withLimbs(of: line) { line in withMutableLimbs(of: &r) { zk_bn254cx_fp12_mul_by_line($0, f, line) } } }
        return r
    }
}

extension BLS12_381Field {
    @inlinable @inline(__always)
    public static func montgomeryProduct(_ a: Limbs6, _ b: Limbs6) -> Limbs6 {
        Limbs6(storage: zk_bls12_381_montgomery_product(zk_limbs6(limb: a.storage), zk_limbs6(limb: b.storage)).limb)
    }

    @inlinable @inline(__always)
    public static func modularSum(_ a: Limbs6, _ b: Limbs6) -> Limbs6 {
        Limbs6(storage: zk_bls12_381_modular_sum(zk_limbs6(limb: a.storage), zk_limbs6(limb: b.storage)).limb)
    }

    @inlinable @inline(__always)
    public static func modularDifference(_ a: Limbs6, _ b: Limbs6) -> Limbs6 {
        Limbs6(storage: zk_bls12_381_modular_difference(zk_limbs6(limb: a.storage), zk_limbs6(limb: b.storage)).limb)
    }

    @inlinable @inline(__always)
    public static func fp2Product(_ a0: Limbs6, _ a1: Limbs6, _ b0: Limbs6, _ b1: Limbs6) -> (Limbs6, Limbs6) {
        var c0 = zk_limbs6(), c1 = zk_limbs6()
        zk_bls12_381_fp2_product(zk_limbs6(limb: a0.storage), zk_limbs6(limb: a1.storage), zk_limbs6(limb: b0.storage), zk_limbs6(limb: b1.storage),
                            &c0, &c1)
        return (Limbs6(storage: c0.limb), Limbs6(storage: c1.limb))
    }

    @inlinable @inline(__always)
    public static func fp4Product(_ a: Fp4<Self>, _ b: Fp4<Self>) -> Fp4<Self> {
        var r = Fp4<Self>.zero
        withLimbs(of: a) { a in withLimbs(of: b) { b in withMutableLimbs(of: &r) { zk_bls12_381_fp4_mul($0, a, b) } } }
        return r
    }

    @inlinable @inline(__always)
    public static func fp4Squared(_ a: Fp4<Self>) -> Fp4<Self> {
        var r = Fp4<Self>.zero
        withLimbs(of: a) { a in withMutableLimbs(of: &r) { zk_bls12_381_fp4_square($0, a) } }
        return r
    }

    @inlinable @inline(__always)
    public static func fp12CyclotomicSquared(_ a: Fp12<Self>) -> Fp12<Self> {
        var r = Fp12<Self>.zero
        withLimbs(of: a) { a in withMutableLimbs(of: &r) { zk_bls12_381_fp12_cyclotomic_square($0, a) } }
        return r
    }

    @inlinable @inline(__always)
    public static func compressedCyclotomicSquare(_ x: inout CompressedCyclotomic<Self>, times: Int) {
        withMutableLimbs(of: &x) { zk_bls12_381_compressed_square($0, Int32(times)) }
    }

    @inlinable @inline(__always)
    public static func fp12Product(_ a: Fp12<Self>, _ b: Fp12<Self>) -> Fp12<Self> {
        var r = Fp12<Self>.zero
        withLimbs(of: a) { a in withLimbs(of: b) { b in withMutableLimbs(of: &r) { zk_bls12_381_fp12_mul($0, a, b) } } }
        return r
    }

    @inlinable @inline(__always)
    public static func fp12Squared(_ a: Fp12<Self>) -> Fp12<Self> {
        var r = Fp12<Self>.zero
        withLimbs(of: a) { a in withMutableLimbs(of: &r) { zk_bls12_381_fp12_square($0, a) } }
        return r
    }

    /// The C code is generated for this field's twist (multiplicative); the other shape takes the Swift path.
    @inlinable @inline(__always)
    public static func fp12ProductByLine(_ f: Fp12<Self>, a: Fp4<Self>, b: Fp2<Self>, twist: TwistType) -> Fp12<Self> {
        guard twist == .multiplicative else { return f.sparseProduct(a: a, b: b, twist: twist) }
        var r = Fp12<Self>.zero
        let line = (a, b)
        withLimbs(of: f) { f in withLimbs(of: line) { line in withMutableLimbs(of: &r) { zk_bls12_381_fp12_mul_by_line($0, f, line) } } }
        return r
    }
}
/// The limbs of a tower element (a frozen struct of `Fp`s, each an inline tuple of UInt64: one
/// contiguous run of words), as the C functions take them.
@inlinable @inline(__always)
func withLimbs<T, R>(of value: T, _ body: (UnsafePointer<UInt64>) -> R) -> R {
    withUnsafeBytes(of: value) { body($0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
}

@inlinable @inline(__always)
func withMutableLimbs<T, R>(of value: inout T, _ body: (UnsafeMutablePointer<UInt64>) -> R) -> R {
    withUnsafeMutableBytes(of: &value) { body($0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
}
#endif

/// Whether this CPU can run this build's field arithmetic.
public enum FieldArithmeticSupport {
    /// Nil when it can; otherwise the message to print before exiting (the assembly would stop
    /// the process with SIGILL at the first multiplication).
    /// ZKPIN_SKIP_CPU_CHECK=1 skips the check: valgrind's virtual CPU runs ADX instructions
    /// but hides them from CPUID (tools/bench-instructions sets it).
    public static var unsupportedCPUMessage: String? {
        #if ZKPIN_ADX
        if zk_cpu_has_bmi2_adx() == 0 && getenv("ZKPIN_SKIP_CPU_CHECK").map({ String(cString: $0) }) != "1" {
            return "this build of ZKPin needs an x86-64 CPU with BMI2 and ADX (Intel Broadwell or AMD Zen, 2014 and later); "
                + "rebuild with ZKPIN_PORTABLE=1 swift build -c release for older CPUs"
        }
        #endif
        return nil
    }

    /// For the executables' entry points: prints `program: message` and exits with status 1
    /// when this CPU cannot run the build.
    public static func exitIfUnsupported(program: String) {
        guard let message = unsupportedCPUMessage else { return }
        let line = Array("\(program): \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        exit(1)
    }
}
