// The M-Pin test vectors through the code ZKPinKit's client runs, built as an app builds it
// (tools/zkpinkit-test): the portable Swift field arithmetic, Fermat's inversions, no GMP.
// Usage: zkpinkit-vectors FILE-OR-FOLDER...   prints "N passed, M failed" (and each failure).
import Foundation
import ZKPinVectors

let files = VectorSuiteRun.files(for: Array(CommandLine.arguments.dropFirst()))
guard !files.isEmpty else {
    print("usage: zkpinkit-vectors FILE-OR-FOLDER...")
    exit(2)
}
var passed = 0, failed = 0
for file in files {
    do {
        let report = try VectorSuiteRun.check(path: file)
        for (name, outcome) in report.results where !outcome.passed { print("\(file): \(name): \(outcome)") }
        passed += report.passed
        failed += report.failed
    } catch {
        print("\(file): \(error)")
        exit(2)
    }
}
print("\(passed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
