import ArgumentParser
import Foundation
import ZKPinProtocol
import ZKPinVectors

struct VectorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Check M-Pin test-vector files, or generate the project's own.",
        subcommands: [VectorsCheckCommand.self, VectorsGenerateCommand.self]
    )
}

struct VectorsCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Recompute every field of every vector from its inputs and compare.",
        discussion: """
            Reads the .txt (KEY = value) and .json formats of the M-Pin spec: Milagro's BN254_CX, \
            MPIN_ONE_PASS and BLS381 files, the BN254CX cross-check file (joined with the \
            BN254_CX.txt beside it or in milagro/), the DVS signature files (DVS_*.json, \
            recognised by their PA key), and the project's own Vectors/ files with EXPECT lines. \
            A folder stands for its .txt and .json files (subfolders included). Prints one line \
            per failing vector naming the first field that differs, \
            then "N passed, M failed". Exit status: 0 all passed, 1 some failed, 2 a file could \
            not be read or recognised.
            """
    )

    @Argument(help: "Vector files (.txt or .json) or folders of them.")
    var files: [String]

    @Flag(name: .shortAndLong, help: "Also print a line per passing vector.")
    var verbose = false

    func run() throws {
        var passed = 0, failed = 0
        let files = VectorSuiteRun.files(for: self.files)
        if files.isEmpty {
            StandardStreams.writeError("zkpin vectors check: no .txt or .json files in \(self.files.joined(separator: ", "))\n")
            throw ExitCode(2)
        }
        for file in files {
            let report: VectorFileReport
            do { report = try VectorSuiteRun.check(path: file) } catch {
                StandardStreams.writeError("zkpin vectors check: \(error)\n")
                throw ExitCode(2)
            }
            for (name, outcome) in report.results {
                switch outcome {
                case .passed:
                    if verbose { print("\(file): \(name): ok") }
                case let .mismatch(field, expected, computed):
                    print("\(file): \(name): \(field) differs: file has \(expected), computed \(computed)")
                case let .invalid(message):
                    print("\(file): \(name): cannot check: \(message)")
                }
            }
            passed += report.passed
            failed += report.failed
        }
        print("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode(1) }
    }
}
