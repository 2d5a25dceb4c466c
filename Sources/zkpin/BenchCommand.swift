import ArgumentParser
import Foundation
import ZKPinMath
import ZKPinProtocol

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the field, curve, pairing and M-Pin operations (median per call, one thread).",
        discussion: """
        Operations: \(CurveBenchmarks<BN254CX>.operations.joined(separator: ", ")). \
        pairing is one full pairing (G2 arithmetic included); pairing_prepared one with the \
        Miller-loop lines of Q computed beforehand; client_login is pass 1 and pass 2 with A \
        cached and fresh x and y; server_verify is decoding U and V with full validation, \
        y·A + U, one product of two pairings with one final exponentiation (the lines of Q and \
        SS prepared once, as the server does at start-up), and the comparison. With --baseline it also times OpenSSL's \
        P-256 ECDSA verification in the same process and prints each time as a ratio to it. \
        Build in release mode first (swift build -c release); debug timings are meaningless.
        """
    )

    @Option(help: "bn254cx, bls12-381 or all.")
    var curve: String = "all"

    @Option(help: "Comma-separated operations to run (default: all).")
    var ops: String?

    @Flag(help: "Also time P-256 ECDSA verification (OpenSSL) and report ratios to it.")
    var baseline = false

    @Flag(help: "Print a JSON array of {curve, op, median_ns, ops_per_s}.")
    var json = false

    func validate() throws {
        guard curve == "all" || CurveID(name: curve) != nil else {
            throw ValidationError("unknown curve '\(curve)': use bn254cx, bls12-381 or all")
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
            if !json { FileHandle.standardError.write(Data("  timing \(op)...\r".utf8)) }
        }
        var results = [BenchmarkResult]()
        if baseline, let reference = ECDSABaseline.run() { results.append(reference) }
        for id in curves {
            switch id {
            case .bn254cx: results += CurveBenchmarks<BN254CX>().run(only: only, progress: progress)
            case .bls12_381: results += CurveBenchmarks<BLS12_381>().run(only: only, progress: progress)
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        } else {
            printTable(results)
        }
    }

    func printTable(_ results: [BenchmarkResult]) {
        let reference = results.first { $0.op == "ecdsa_verify" }?.medianNanoseconds
        var header = "curve      op               median        ops/s"
        if reference != nil { header += "   x ecdsa_verify" }
        print(header)
        for result in results {
            var line = result.curve.padding(toLength: 11, withPad: " ", startingAt: 0)
                + result.op.padding(toLength: 15, withPad: " ", startingAt: 0)
                + format(result.medianNanoseconds).leftPadded(to: 9)
                + String(format: "%13.0f", result.operationsPerSecond)
            if let reference { line += String(format: "%17.2f", result.medianNanoseconds / reference) }
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
