import Foundation
import Testing
import ZKPinTestSupport

@testable import ZKPinServer

/// The one-time code generator: uniform digits (chi-square over many seeded draws; the seed is
/// printed with every failure and may be replayed with ZKPIN_OTP_SEED), rejection of the draws
/// that would bias the remainder, zero padding and the configured length.
@Suite struct OTPGeneratorTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["ZKPIN_OTP_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0_7F

    /// Pearson's chi-square statistic of observed counts against equal expected counts.
    static func chiSquare(_ counts: [Int]) -> Double {
        let expected = Double(counts.reduce(0, +)) / Double(counts.count)
        return counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
    }

    /// Critical values at p = 0.001 (a fixed seed makes the test deterministic; the margin
    /// keeps a replay with another seed failing about once in a thousand runs per check).
    static let critical9 = 27.877  // 9 degrees of freedom (10 bins)
    static let critical999 = 1143.9  // 999 degrees of freedom (1000 bins), Wilson-Hilferty

    @Test(arguments: [6, 7, 8]) func everyDigitPositionIsUniform(digits: Int) {
        var generator = OTPGenerator(digits: digits, source: SeededRandom(seed: Self.seed))
        let draws = 100_000
        var positions = Array(repeating: Array(repeating: 0, count: 10), count: digits)
        var leading = Array(repeating: 0, count: 1000)
        for _ in 0..<draws {
            let code = generator.next()
            #expect(code.count == digits && code.allSatisfy(\.isASCII) && code.allSatisfy(\.isNumber), "seed \(Self.seed): \(code)")
            for (i, c) in code.utf8.enumerated() { positions[i][Int(c) - 0x30] += 1 }
            leading[Int(code.prefix(3))!] += 1
        }
        for (i, counts) in positions.enumerated() {
            let x2 = Self.chiSquare(counts)
            #expect(x2 < Self.critical9, "seed \(Self.seed), \(digits) digits, position \(i): chi-square \(x2), counts \(counts)")
        }
        let x2 = Self.chiSquare(leading)
        #expect(x2 < Self.critical999, "seed \(Self.seed), \(digits) digits, first three digits: chi-square \(x2)")
    }

    /// The statistic catches a biased draw (so the test above can fail): digits taken as a
    /// 4-bit value modulo 10 make 0 to 5 twice as likely as 6 to 9.
    @Test func theChiSquareCheckCatchesModuloBias() {
        var source = SeededRandom(seed: Self.seed)
        var counts = Array(repeating: 0, count: 10)
        for _ in 0..<10_000 { counts[Int(source.next() & 0xF) % 10] += 1 }
        #expect(Self.chiSquare(counts) > Self.critical9, "seed \(Self.seed)")
    }

    /// A source that first returns the draws at or above the largest multiple of 10^6 below
    /// 2^32 (the ones a plain remainder would fold onto the low codes): they are rejected.
    struct Scripted: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    @Test func drawsThatWouldBiasTheRemainderAreRejected() {
        let limit: UInt64 = (1 << 32) / 1_000_000 * 1_000_000  // 4_294_000_000
        var generator = OTPGenerator(digits: 6, source: Scripted(values: [limit, UInt64(UInt32.max), limit + 5, 1_234_567]))
        #expect(generator.nextValue() == 234_567)
        // The highest draw kept is limit - 1.
        var edge = OTPGenerator(digits: 6, source: Scripted(values: [limit - 1]))
        #expect(edge.nextValue() == 999_999)
        // Zero padding: the value 42 is the code 000042.
        var padded = OTPGenerator(digits: 6, source: Scripted(values: [42]))
        #expect(padded.next() == "000042")
        var eight = OTPGenerator(digits: 8, source: Scripted(values: [7]))
        #expect(eight.next() == "00000007")
    }

    @Test func theSameSeedGivesTheSameCodes() {
        var a = OTPGenerator(digits: 6, source: SeededRandom(seed: Self.seed))
        var b = OTPGenerator(digits: 6, source: SeededRandom(seed: Self.seed))
        let first = (0..<20).map { _ in a.next() }
        #expect(first == (0..<20).map { _ in b.next() })
        #expect(Set(first).count > 15)
    }
}
