import ArgumentParser
import Foundation
import ZKPinBenchmark
import ZKPinMath
import ZKPinProtocol

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the field, curve, pairing and M-Pin operations (median per call, one thread).",
        discussion: """
            Operations: \(CurveBenchmarks<BN254CX>.operations.joined(separator: ", ")). \
            fp_inverse is a field inversion, blinded by a random factor (GMP's Euclid); fp_inverse_ct and scalar_inverse the GMP-free constant-time inversions (Fermat) of a field element and of a secret scalar mod r, g1_affine_ct the affine coordinates of a secret multiple by the former; g1_mul is a constant-time multiplication by fixed windows over the width of r, \
            g1_mul_glv the constant-time GLV one (a point known to be in G1, as the trusted \
            authorities' shares and the client's login use it); pairing is one full pairing (G2 arithmetic included), miller_loop and \
            final_exponentiation its two halves; pairing_prepared one with the \
            Miller-loop lines of Q computed beforehand; client_login is pass 1 and pass 2 with A \
            cached and fresh x and y; server_verify is decoding U and V with full validation, \
            y·A + U, one product of two pairings with one final exponentiation (the lines of Q and \
            SS prepared once, as the server does at start-up), and the comparison. With --baseline it also times OpenSSL's \
            P-256 ECDSA verification in the same process and prints each operation's ratio to it, \
            timed in batches that alternate with the operation's own (so that the machine speeding \
            up or slowing down during the run does not skew the ratio; JSON field x_ecdsa_verify). \
            Build in release mode first (swift build -c release); debug timings are meaningless.
            """
    )

    @Option(help: "\(CurveID.names(and: "all")).")
    var curve: String = "all"

    @Option(help: "Comma-separated operations to run (default: all).")
    var ops: String?

    @Flag(help: "Also time P-256 ECDSA verification (OpenSSL) and report ratios to it.")
    var baseline = false

    @Option(help: "Timed batches (of at least 5 ms) per operation; more give steadier medians on a busy machine.")
    var samples = 21

    @Flag(help: "Print a JSON array of {curve, op, median_ns, ops_per_s[, x_ecdsa_verify]}.")
    var json = false

    func validate() throws {
        guard (1...1001).contains(samples) else { throw ValidationError("--samples must be between 1 and 1001") }
        guard curve == "all" || CurveID(name: curve) != nil else {
            throw ValidationError("unknown curve '\(curve)': use \(CurveID.names(and: "all"))")
        }
        if let ops {
            let known = Set(CurveBenchmarks<BN254CX>.operations)
            for op in ops.split(separator: ",") where !known.contains(String(op)) {
                throw ValidationError("unknown operation '\(op)'; known: \(known.sorted().joined(separator: ", "))")
            }
        }
    }

    func run() throws {
        let curves = curve == "all" ? CurveID.allCases : [CurveID(name: curve)!]
        let only = ops.map { Set($0.split(separator: ",").map(String.init)) }
        let progress: (String) -> Void = { op in
            if !json { StandardStreams.writeError("  timing \(op)...\r") }
        }
        var stopwatch = Stopwatch()
        stopwatch.samples = samples
        var results = [BenchmarkResult]()
        var reference: ECDSABaseline?
        if baseline {
            guard let baselineVerifier = ECDSABaseline(), let own = baselineVerifier.run(stopwatch: stopwatch) else {
                StandardStreams.writeError("zkpin bench: OpenSSL's P-256 ECDSA verification failed, so there is no baseline\n")
                throw ExitCode(1)
            }
            reference = baselineVerifier
            results.append(own)
        }
        for id in curves {
            results += id.run(Benchmark(stopwatch: stopwatch, reference: reference, only: only, progress: progress))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        } else {
            printTable(results)
        }
    }

    struct Benchmark: CurveOperation {
        let stopwatch: Stopwatch
        let reference: ECDSABaseline?
        let only: Set<String>?
        let progress: (String) -> Void
        func run<C: PairingCurve>(on curve: C.Type) -> [BenchmarkResult] {
            CurveBenchmarks<C>(stopwatch: stopwatch, reference: reference).run(only: only, progress: progress)
        }
    }

    func printTable(_ results: [BenchmarkResult]) {
        let withRatios = results.contains { $0.ratioToReference != nil }
        // The op column fits the longest name (server_verify_batch256), never truncating it.
        let opWidth = max(15, (results.map(\.op.count).max() ?? 0) + 1)
        var header = "curve      " + "op".padding(toLength: opWidth, withPad: " ", startingAt: 0) + "   median        ops/s"
        if withRatios { header += "   x ecdsa_verify" }
        print(header)
        for result in results {
            var line =
                result.curve.padding(toLength: 11, withPad: " ", startingAt: 0)
                + result.op.padding(toLength: opWidth, withPad: " ", startingAt: 0)
                + format(result.medianNanoseconds).leftPadded(to: 9)
                + String(format: "%13.0f", result.operationsPerSecond)
            if withRatios {
                let ratio = result.ratioToReference ?? 1
                line += String(format: ratio < 0.1 ? "%17.4f" : "%17.2f", ratio)
            }
            print(line)
        }
    }

    func format(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: return String(format: "%.0f ns", nanoseconds)
        case ..<1_000_000: return String(format: "%.1f us", nanoseconds / 1_000)
        default: return String(format: "%.3f ms", nanoseconds / 1_000_000)
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
