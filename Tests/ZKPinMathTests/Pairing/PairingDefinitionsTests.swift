import Testing
import ZKPinMath
import ZKPinTestSupport

/// The pairing's shortcuts (cyclotomic powers, sparse lines, NAF digits, prepared lines, the
/// "is it 1" test) against the plain definitions they replace, on seeded random inputs.
struct PairingDefinitionsTests {
    static func randomFp12<C: PairingCurve>(_: C.Type, using random: inout SeededRandom) -> Fp12<C.Field> {
        func fp2() -> Fp2<C.Field> {
            Fp2(Fp(BigInt.random(in: .zero, C.Field.modulusBig, using: &random)), Fp(BigInt.random(in: .zero, C.Field.modulusBig, using: &random)))
        }
        return Fp12(Fp4(fp2(), fp2()), Fp4(fp2(), fp2()), Fp4(fp2(), fp2()))
    }

    /// f^((p^6 - 1)(p^2 + 1)): an element of the cyclotomic subgroup.
    static func randomCyclotomic<C: PairingCurve>(_ c: C.Type, using random: inout SeededRandom) -> Fp12<C.Field> {
        let f = randomFp12(c, using: &random)
        let easy1 = f.conjugate * f.inverse
        return easy1.frobenius.frobenius * easy1
    }

    func checkCyclotomic<C: PairingCurve>(_ c: C.Type) {
        var random = SeededRandom()
        for _ in 0..<20 {
            let x = Self.randomCyclotomic(c, using: &random)
            #expect(x.cyclotomicSquared == x.squared, "\(random.replay)")
            let e = UInt64.random(in: 0...UInt64.max, using: &random)
            #expect(x.cyclotomicPower(word: e) == x.power(limbs: [e]), "\(random.replay)")
            let limbs = (0..<3).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
            #expect(x.cyclotomicPower(limbs: limbs) == x.power(limbs: limbs), "\(random.replay)")
        }
        // Outside the subgroup the shortcut is wrong, so the test above is not vacuous.
        let y = Self.randomFp12(c, using: &random)
        #expect(y.cyclotomicSquared != y.squared, "\(random.replay)")
        let z = Self.randomCyclotomic(c, using: &random)
        #expect(z.cyclotomicPower(word: 0).isOne, "\(random.replay)")
    }

    @Test func cyclotomicSquaringBN() { checkCyclotomic(BN254CX.self) }
    @Test func cyclotomicSquaringBLS() { checkCyclotomic(BLS12_381.self) }

    func checkSparseLines<C: PairingCurve>(_ c: C.Type) {
        var random = SeededRandom()
        for _ in 0..<20 {
            let f = Self.randomFp12(c, using: &random)
            let g = Self.randomFp12(c, using: &random)
            let line = Line<C>(ly: g.c0.c0, lx: g.c0.c1, lc: g.c1.c0)
            let p = (x: g.c2.c0.c0, y: g.c2.c1.c1)
            let evaluated = EvaluatedLine(line, at: p)
            #expect(f.multiplied(by: evaluated) == f * evaluated.dense, "\(random.replay)")
            // A line with ly = 1, as prepared lines are kept: y_P enters in Fp, and the product
            // takes the kernel for that shape.
            let normalized = EvaluatedLine(normalized: Line<C>(ly: .one, lx: line.lx, lc: line.lc), at: p)
            #expect(normalized.yInBaseField && !evaluated.yInBaseField)
            #expect(f.multiplied(by: normalized) == f * normalized.dense, "\(random.replay)")
        }
    }

    @Test func sparseLineProductBN() { checkSparseLines(BN254CX.self) }
    @Test func sparseLineProductBLS() { checkSparseLines(BLS12_381.self) }

    @Test func windowedNAFDigitsReconstructTheExponent() {
        var random = SeededRandom()
        for width in 2...6 {
            for _ in 0..<50 {
                let limbs = (0..<Int.random(in: 1...3, using: &random)).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) }
                let digits = WindowedNAF.digits(of: limbs, width: width)
                var value = BigInt.zero
                for digit in digits.reversed() { value = value * BigInt(2) + BigInt(Int(digit)) }
                #expect(value == BigInt(limbs: limbs), "\(random.replay)")
                let bound = 1 << (width - 1)
                for (index, digit) in digits.enumerated() where digit != 0 {
                    #expect(digit % 2 != 0 && Int(digit.magnitude) < bound, "\(random.replay)")
                    // At least width-1 zeros follow every non-zero digit.
                    for next in (index + 1)..<min(index + width, digits.count) { #expect(digits[next] == 0) }
                }
            }
        }
        #expect(WindowedNAF.digits(of: [0, 0], width: 5).isEmpty, "\(random.replay)")
        // The one-word form gives the same digits as the multi-word one (its carries run past bit
        // 63).
        let words: [UInt64] = [0, 1, 15, 16, 31, .max, .max - 1, 1 << 63, (1 << 63) + 0x1f]
        for word in words + (0..<50).map({ _ in UInt64.random(in: 0...UInt64.max, using: &random) }) {
            for width in 2...7 {
                let (oneWord, multiWord) = (WindowedNAF.digits(ofWord: word, width: width), WindowedNAF.multiWordDigits(of: [word], width: width))
                #expect(oneWord == multiWord, "\(word) \(random.replay)")
            }
        }
    }

    func checkCurveConstants<C: PairingCurve>(_: C.Type) {
        #expect(C.uIsNegative == C.u.isNegative)
        #expect(BigInt(limbs: [C.uMagnitude]) == (C.u.isNegative ? -C.u : C.u))
        var loop = BigInt.zero
        for digit in C.ateLoopNAF.reversed() { loop = loop * BigInt(2) + BigInt(Int(digit)) }
        #expect(loop == C.ateLoopCount)
    }

    @Test func curveConstantsBN() { checkCurveConstants(BN254CX.self) }
    @Test func curveConstantsBLS() { checkCurveConstants(BLS12_381.self) }

    func checkPrepared<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let p1 = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        let p2 = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        let q = C.g2Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        let prepared = G2Prepared(q)
        // Lines divided by their ly (an Fp2 factor the final exponentiation removes).
        #expect(prepared.isNormalized && prepared.lines.allSatisfy { $0.ly == .one }, "\(random.replay)")
        let e1 = Pairing<C>.pairing(p1, q)
        #expect(Pairing<C>.pairing(p1, prepared) == e1, "\(random.replay)")
        #expect(Pairing<C>.pairing(p1, C.g2GeneratorPrepared) == Pairing<C>.pairing(p1, C.g2Generator), "\(random.replay)")
        let e2 = Pairing<C>.pairing(p2, C.g2Generator)
        #expect(Pairing<C>.product(p1, q, p2, C.g2Generator) == e1 * e2, "\(random.replay)")
        #expect(Pairing<C>.product(p1, prepared, p2, C.g2GeneratorPrepared) == e1 * e2, "\(random.replay)")
        #expect(Pairing<C>.product([(p1, q), (p2, C.g2Generator), (p1, q)]) == e1 * e2 * e1, "\(random.replay)")
        // A point at infinity contributes 1.
        #expect(Pairing<C>.product(.infinity, prepared, p2, C.g2GeneratorPrepared) == e2, "\(random.replay)")
        #expect(Pairing<C>.pairing(p1, G2Prepared<C>(.infinity)).isOne, "\(random.replay)")
    }

    /// The "is it 1" test of the server (3λ on BLS12) agrees with the exact final exponent on
    /// products that are 1 (e(P, Q)·e(-P, Q), e(aP, bQ)·e(-abP, Q)) and on ones that are not.
    func checkIsOne<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let p = C.g1Generator.multiplied(byPublic: BigInt(987_654_321))
        let q = C.g2Generator.multiplied(byPublic: BigInt(123_456_789))
        let (a, b) = (BigInt(1_000_003), BigInt(77_777))
        let ones = [
            MillerLoop<C>.evaluate(p, q, -p, q),
            MillerLoop<C>.evaluate(
                p.multiplied(byPublic: a), q.multiplied(byPublic: b),
                -p.multiplied(byPublic: a * b), q)
        ]
        for f in ones {
            #expect(!f.isOne, "the Miller value itself is not 1 \(random.replay)")
            #expect(Pairing<C>.finalExponentiation(f).isOne, "\(random.replay)")
            #expect(Pairing<C>.finalExponentiationIsOne(f), "\(random.replay)")
        }
        let notOnes = [MillerLoop<C>.evaluate(p, q, p, q), MillerLoop<C>.evaluate(p, q), Self.randomFp12(C.self, using: &random)]
        for f in notOnes {
            #expect(!Pairing<C>.finalExponentiation(f).isOne, "\(random.replay)")
            #expect(!Pairing<C>.finalExponentiationIsOne(f), "\(random.replay)")
        }
    }

    @Test func finalExponentiationIsOneBN() { checkIsOne(BN254CX.self) }
    @Test func finalExponentiationIsOneBLS() { checkIsOne(BLS12_381.self) }

    /// The homogeneous live lines give the same pairings as the Jacobian ones they replaced
    /// (each line may differ by an Fp2 factor, which the final exponentiation removes), for
    /// seeded random P and Q and for the generators; and the plain f itself differs.
    func checkLiveLines<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        var pairs = [(C.g1Generator, C.g2Generator)]
        for _ in 0..<3 {
            pairs.append(
                (
                    C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random)),
                    C.g2Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
                ))
        }
        for (p, q) in pairs {
            guard let pa = p.affine, let qa = q.affine else { Issue.record("a point at infinity, \(random.replay)"); return }
            var live = MillerPair(pa, LiveLines<C>(qa))
            var jacobian = MillerPair(pa, JacobianLiveLines<C>(qa))
            let f = MillerLoop<C>.run(&live), g = MillerLoop<C>.run(&jacobian)
            #expect(Pairing<C>.finalExponentiation(f) == Pairing<C>.finalExponentiation(g), "\(C.name), \(random.replay)")
            #expect(f != g, "the lines are scaled differently, so f itself differs (\(C.name))")
        }
    }

    @Test func liveLinesBN() { checkLiveLines(BN254CX.self) }
    @Test func liveLinesBLS() { checkLiveLines(BLS12_381.self) }

    @Test func preparedLinesBN() { checkPrepared(BN254CX.self) }
    @Test func preparedLinesBLS() { checkPrepared(BLS12_381.self) }
}
