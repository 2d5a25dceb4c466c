#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if ZKPIN_ADX
    import CFieldArithmetic
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
