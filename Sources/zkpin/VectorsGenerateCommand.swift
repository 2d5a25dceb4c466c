import ArgumentParser
import Foundation
import ZKPinProtocol
import ZKPinVectors

struct VectorsGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the project's own M-Pin vectors, deterministic from a seed.",
        discussion: """
            Each vector carries the inputs (master shares, identity, date, PINs, x, y or \
            TimeValue, and the key-agreement randoms R and W) and every derived value: secrets, \
            shares, token, U, UT, SEC, V, HID, HTID, the verification result, on failure E, F and \
            the PIN error (KANGAROO), and the M-Pin Full keys, plus an EXPECT line. Every fourth \
            vector uses a wrong PIN. With --negative it writes cases that must be refused: -14 for \
            each kind of undecodable point, -19 for a wrong PIN and an expired time permit.
            """
    )

    @Option(help: "\(CurveID.names()).")
    var curve: String = "bls12-381"

    @Option(help: "Number of vectors (with --negative: of case groups).")
    var count: Int = 10

    @Option(help: "Any text; the same seed gives the same file.")
    var seed: String = "zkpin"

    @Flag(help: "Use time permits (DATE > 0).")
    var dates = false

    @Flag(name: .customLong("one-pass"), help: "One-pass vectors: y is the hash of TimeValue and U (or UT).")
    var onePass = false

    @Flag(help: "Write negative cases instead of regular vectors.")
    var negative = false

    @Flag(help: "Write DVS signature vectors (good, wrong PIN, message, Pa and time, then undecodable Pa); with --dates, signed with time permits.")
    var dvs = false

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func validate() throws {
        guard !(dvs && (negative || onePass)) else { throw ValidationError("--dvs goes with --dates only (a signature is one-pass already)") }
        guard CurveID(name: curve) != nil else { throw ValidationError("unknown curve '\(curve)': use \(CurveID.names())") }
        guard (1...10_000).contains(count) else { throw ValidationError("--count must be between 1 and 10000") }
    }

    func run() throws {
        var generator = VectorGenerator(curve: CurveID(name: curve)!, count: count, seed: seed)
        generator.dates = dates
        generator.onePass = onePass
        generator.negative = negative
        generator.dvs = dvs
        let text = generator.generate()
        if let output {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: output)) } catch {
                StandardStreams.writeError("zkpin vectors generate: cannot write \(output): \(error.localizedDescription)\n")
                throw ExitCode(2)
            }
        } else {
            print(text, terminator: "")
        }
    }
}
