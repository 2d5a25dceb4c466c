#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if ZKPIN_ADX
    import CFieldArithmetic

    // The curves' Montgomery products, sums, differences and Fp2 products in the x86-64 assembly
    // of CFieldArithmetic (built with ZKPIN_ADX: x86-64 unless ZKPIN_PORTABLE=1, see Package.swift):
    // mulx with the adcx/adox carry chains, about half the instructions of the Swift product;
    // branchless add/adc/cmov chains (the Swift sums compile to branches on the carries); the Fp2
    // product reduces lazily (Karatsuba on double-width products, one Montgomery reduction per
    // coefficient); the Fp4 and Fp12 products and squares, the cyclotomic squaring and the product by
    // a Miller-loop line are C on those primitives. Each curve's bindings are generated from its
    // description by tools/gen-curves (Curve/Generated/<curve>+Kernels.swift); this file holds what
    // they share. Without ZKPIN_ADX the protocol's defaults, in Swift, apply.

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
