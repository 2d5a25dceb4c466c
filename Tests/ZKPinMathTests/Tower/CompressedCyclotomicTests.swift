import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// Karabina's compressed squaring and the exponentiation built on it, against Granger–Scott
/// squaring and the uncompressed exponentiation, on random elements of the cyclotomic subgroup.
struct CompressedCyclotomicTests {
    func checkSquaring<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        for _ in 0..<20 {
            let x = PairingDefinitionsTests.randomCyclotomic(C.self, using: &random)
            let square = x.cyclotomicSquared
            // The Swift formulas and the field's kernel (C on the two curves), once and repeated.
            #expect(CompressedCyclotomic(x).squared == CompressedCyclotomic(square), "\(random.replay)")
            var kernel = CompressedCyclotomic(x)
            C.Field.compressedCyclotomicSquare(&kernel, times: 1)
            #expect(kernel == CompressedCyclotomic(square), "\(random.replay)")
            C.Field.compressedCyclotomicSquare(&kernel, times: 5)
            #expect(
                kernel
                    == CompressedCyclotomic(
                        square.cyclotomicSquared.cyclotomicSquared
                            .cyclotomicSquared.cyclotomicSquared.cyclotomicSquared))
            var unchanged = CompressedCyclotomic(x)
            C.Field.compressedCyclotomicSquare(&unchanged, times: 0)
            #expect(unchanged == CompressedCyclotomic(x), "\(random.replay)")
            // Decompression gives the whole element back.
            let compressed = CompressedCyclotomic(square)
            #expect(compressed.decompressed(g1: compressed.g1Numerator * compressed.g1Denominator.inverse) == square, "\(random.replay)")
        }
    }

    func checkPower<C: PairingCurve>(_: C.Type) {
        var generator = FieldPropertyTests.Generator(state: 5)
        var random = SeededRandom()
        // Binary and NAF digit sets, a digit at position 0 or not, negative NAF digits, the
        // curve's |u|, and exponents with more than 16 non-zero digits (the fallback).
        var exponents: [UInt64] = [
            0, 1, 2, 3, 7, 0x10, 0x8000_0000_0000_0000, .max, 0x5555_5555_5555_5555,
            0xFFFF_0000_FFFF_0000, C.uMagnitude, C.uMagnitude &+ 1
        ]
        exponents += (0..<8).map { _ in generator.next() }
        exponents += (0..<8).map { _ in generator.next() & generator.next() & generator.next() }
        for exponent in exponents {
            let x = PairingDefinitionsTests.randomCyclotomic(C.self, using: &random)
            #expect(
                x.compressedCyclotomicPower(word: exponent) == x.cyclotomicPower(word: exponent),
                "exponent \(String(exponent, radix: 16)), \(random.replay)")
        }
    }

    @Test func squaringBN254CX() { checkSquaring(BN254CX.self) }
    @Test func squaringBLS12381() { checkSquaring(BLS12_381.self) }
    @Test func powerBN254CX() { checkPower(BN254CX.self) }
    @Test func powerBLS12381() { checkPower(BLS12_381.self) }

    /// The digit sets: NAF only when it has fewer non-zero digits, and both sum back to e.
    @Test func signedDigits() {
        var generator = FieldPropertyTests.Generator(state: 6)
        for exponent in [0, 1, 3, 0xB, .max, BN254CX.uMagnitude, BLS12_381.uMagnitude] + (0..<100).map({ _ in generator.next() }) {
            let digits = SignedDigits(exponent)
            var sum = (UInt128(0), UInt128(0))  // positive and negative parts
            for index in 0..<digits.count {
                let (bit, negative) = digits[index]
                if negative { sum.1 += UInt128(1) << UInt128(bit) } else { sum.0 += UInt128(1) << UInt128(bit) }
            }
            #expect(sum.0 - sum.1 == UInt128(exponent))
            #expect(digits.count <= exponent.nonzeroBitCount)
        }
    }
}
