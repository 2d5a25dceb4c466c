import Testing
import ZKPinMathGMP

@testable import ZKPinMath

/// Every Fp and Fp2 operation against GMP on 10,000 random inputs per operation and curve,
/// plus the edge values 0, 1, 2, p-2, p-1.
struct FieldPropertyTests {
    static let iterations = 10_000

    /// Deterministic per test run so a failure can be reproduced from the printed inputs.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
    }

    static func inputs<P: PrimeFieldParameters>(_: P.Type, seed: UInt64) -> [BigInt] {
        let p = P.modulusBig
        var generator = Generator(state: seed)
        let edges = [BigInt.zero, .one, BigInt(2), p - BigInt(2), p - .one]
        return edges + (0..<iterations).map { _ in BigInt.random(in: .zero, p, using: &generator) }
    }

    func checkFp<P: PrimeFieldParameters>(_: P.Type) {
        let p = P.modulusBig
        let a = Self.inputs(P.self, seed: 1), b = Self.inputs(P.self, seed: 2).reversed().map { $0 }
        let c = Self.inputs(P.self, seed: 8), d = Self.inputs(P.self, seed: 9).reversed().map { $0 }
        var failures = 0
        // The pairs of products reduced once (G1's complete formulas): every choice of 0, 1 and
        // p - 1 for the four operands (the double-width sums' extremes), then the random ones.
        let extremes = [BigInt.zero, .one, p - .one]
        var quadruples: [(BigInt, BigInt, BigInt, BigInt)] = []
        for w in extremes { for x in extremes { for y in extremes { for z in extremes { quadruples.append((w, x, y, z)) } } } }
        quadruples += (0..<a.count).map { (a[$0], b[$0], c[$0], d[$0]) }
        for (w, x, y, z) in quadruples {
            let (fw, fx, fy, fz) = (Fp<P>(w), Fp<P>(x), Fp<P>(y), Fp<P>(z))
            if Fp.sumOfProducts(fw, fx, fy, fz).bigInt != (w * x + y * z).mod(p)
                || Fp.differenceOfProducts(fw, fx, fy, fz).bigInt != (w * x - y * z).mod(p)
            {
                failures += 1
                if failures < 5 { Issue.record("sum or difference of products wrong for \([w, x, y, z].map { $0.string(base: 16) })") }
            }
        }
        for (x, y) in zip(a, b) {
            let fx = Fp<P>(x), fy = Fp<P>(y)
            func same(_ value: Fp<P>, _ expected: BigInt, _ op: String) {
                if value.bigInt != expected.mod(p) {
                    failures += 1
                    if failures < 5 { Issue.record("\(op) wrong for \(x.string(base: 16)), \(y.string(base: 16))") }
                }
            }
            same(fx + fy, x + y, "add")
            same(fx - fy, x - y, "sub")
            same(fx * fy, x * y, "mul")
            same(fx.squared, x * x, "square")
            same(-fx, -x, "neg")
            same(fx.doubled, x + x, "double")
            // The curves' constants (3b: 6, 12; 3b': 3, 12), the edges, and a 16-bit one from y.
            for small: UInt64 in [0, 1, 2, 3, 6, 12, 0xffff, y.limbs(count: 8)[0] & 0xffff] {
                same(fx.times(small: small), x * BigInt(small), "times \(small)")
            }
            if fx.bigInt != x { failures += 1; Issue.record("round trip through Montgomery form") }
            if Fp<P>(bytes: fx.bytes) != fx { failures += 1; Issue.record("bytes round trip") }
        }
        #expect(failures == 0)
    }

    func checkFpInverseAndRoot<P: PrimeFieldParameters>(_: P.Type) {
        let p = P.modulusBig
        var failures = 0
        for x in Self.inputs(P.self, seed: 3) {
            let fx = Fp<P>(x)
            if x.isZero {
                #expect(fx.inverse.isZero)
                continue
            }
            if fx.inverse.bigInt != x.inverse(modulus: p)! { failures += 1 }
            let root = fx.squareRoot
            if x.isQuadraticResidue(modulo: p) {
                if root == nil || root!.squared != fx { failures += 1 }
            } else if root != nil {
                failures += 1
            }
        }
        #expect(failures == 0)
    }

    func checkFp2<P: PrimeFieldParameters>(_: P.Type) {
        let p = P.modulusBig
        let a = Self.inputs(P.self, seed: 4), b = Self.inputs(P.self, seed: 5)
        let c = Self.inputs(P.self, seed: 6).reversed().map { $0 }, d = Self.inputs(P.self, seed: 7)
        var failures = 0
        for i in a.indices {
            let (a0, a1, b0, b1) = (a[i], b[i], c[i], d[i])
            let x = Fp2<P>(Fp(a0), Fp(a1)), y = Fp2<P>(Fp(b0), Fp(b1))
            func same(_ value: Fp2<P>, _ e0: BigInt, _ e1: BigInt, _ op: String) {
                if value.c0.bigInt != e0.mod(p) || value.c1.bigInt != e1.mod(p) {
                    failures += 1
                    if failures < 5 { Issue.record("Fp2 \(op) wrong at input \(i)") }
                }
            }
            same(x + y, a0 + b0, a1 + b1, "add")
            same(x - y, a0 - b0, a1 - b1, "sub")
            same(x * y, a0 * b0 - a1 * b1, a0 * b1 + a1 * b0, "mul")
            same(x.squared, a0 * a0 - a1 * a1, a0 * a1 * BigInt(2), "square")
            same(-x, -a0, -a1, "neg")
            same(x.conjugate, a0, -a1, "conjugate")
            same(x.timesXi, a0 - a1, a0 + a1, "times xi")
            same(x.doubled, a0 + a0, a1 + a1, "double")
            let norm = (a0 * a0 + a1 * a1).mod(p)
            if let normInverse = norm.inverse(modulus: p) {
                same(x.inverse, a0 * normInverse, -a1 * normInverse, "inverse")
            } else {
                #expect(x.inverse.isZero)
            }
        }
        #expect(failures == 0)
    }

    @Test func bn254cxFp() { checkFp(BN254CXField.self) }
    @Test func bls12381Fp() { checkFp(BLS12_381Field.self) }
    @Test func bn254cxFpInverseAndSquareRoot() { checkFpInverseAndRoot(BN254CXField.self) }
    @Test func bls12381FpInverseAndSquareRoot() { checkFpInverseAndRoot(BLS12_381Field.self) }
    @Test func bn254cxFp2() { checkFp2(BN254CXField.self) }
    @Test func bls12381Fp2() { checkFp2(BLS12_381Field.self) }

    @Test func decodingRejectsValuesAtOrAboveP() {
        let p = BN254CXField.modulusBig
        #expect(Fp<BN254CXField>(bytes: p.bytes(count: 32)) == nil)
        #expect(Fp<BN254CXField>(bytes: (p - .one).bytes(count: 32)) != nil)
        #expect(Fp<BN254CXField>(bytes: [UInt8](repeating: 0xff, count: 32)) == nil)
        #expect(Fp<BN254CXField>(bytes: [UInt8](repeating: 0, count: 31)) == nil)
        let q = BLS12_381Field.modulusBig
        #expect(Fp<BLS12_381Field>(bytes: q.bytes(count: 48)) == nil)
        #expect(Fp<BLS12_381Field>(bytes: (q - .one).bytes(count: 48)) != nil)
    }

    @Test func literalConstantsMatchTheSpec() {
        #expect(BigInt(limbs: BN254CXField.modulus.words) == BN254CXField.modulusBig)
        #expect(BigInt(limbs: BLS12_381Field.modulus.words) == BLS12_381Field.modulusBig)
        for (modulus, inverse) in [
            (BN254CXField.modulusBig, BN254CXField.negativeInverse),
            (BLS12_381Field.modulusBig, BLS12_381Field.negativeInverse)
        ] {
            let twoTo64 = BigInt.one.shiftedLeft(64)
            #expect((modulus * BigInt(inverse) + .one).mod(twoTo64).isZero, "-p^-1 mod 2^64")
        }
        // Spec: the BN254CX Frobenius constant (1+i)^((p-1)/6).
        let delta = BN254CXField.frobeniusDelta
        #expect(delta.c0.bigInt == BigInt(hex: "1359082fa63a0164afe18b8aaca7189868677326f173f8215bd9083355c80ea3")!)
        #expect(delta.c1.bigInt == BigInt(hex: "10a6f7d0623628a900dc53d9cdbc4e3abbd863c7269546c0628d1bbc06534710")!)
    }
}

/// The straight-line 4- and 6-limb code against the generic loops it replaces.
struct UnrolledArithmeticTests {
    func check<P: PrimeFieldParameters>(_: P.Type) {
        var generator = FieldPropertyTests.Generator(state: 99)
        // The no-carry Montgomery shortcut needs the top limb below 2^63 - 1.
        #expect(P.modulus[P.Limbs.count - 1] < (UInt64(1) << 63) - 1)
        for _ in 0..<FieldPropertyTests.iterations {
            let a = P.Limbs(BigInt.random(in: .zero, P.modulusBig, using: &generator).limbs(count: P.Limbs.count))
            let b = P.Limbs(BigInt.random(in: .zero, P.modulusBig, using: &generator).limbs(count: P.Limbs.count))
            let expected = LimbArithmetic.montgomeryMultiplyLoop(a, b, modulus: P.modulus, negativeInverse: P.negativeInverse)
            #expect(P.Limbs.montgomeryProduct(a, b, modulus: P.modulus, negativeInverse: P.negativeInverse) == expected)
            // The field's own product: the assembly on x86-64 builds.
            #expect(P.montgomeryProduct(a, b) == expected)
            #expect(P.Limbs.modularSum(a, b, modulus: P.modulus) == LimbArithmetic.modularSum(a, b, modulus: P.modulus))
            #expect(P.Limbs.modularDifference(a, b, modulus: P.modulus) == LimbArithmetic.modularDifference(a, b, modulus: P.modulus))
            #expect(P.modularSum(a, b) == LimbArithmetic.modularSum(a, b, modulus: P.modulus))
            #expect(P.modularDifference(a, b) == LimbArithmetic.modularDifference(a, b, modulus: P.modulus))
        }
    }

    @Test func bn254cx() { check(BN254CXField.self) }
    @Test func bls12381() { check(BLS12_381Field.self) }

    /// Inputs that push every carry chain of the product, sum and difference to its limit: all limbs of p - 1,
    /// products of the largest values, and limbs of all ones below p.
    func checkEdges<P: PrimeFieldParameters>(_: P.Type) {
        let p = P.modulusBig
        let values = [
            BigInt.zero, .one, BigInt(2), p - BigInt(2), p - .one, p.shiftedRight(1),
            BigInt.one.shiftedLeft(64 * P.Limbs.count - 4) - .one, BigInt.one.shiftedLeft(64) - .one
        ]
        for x in values {
            for y in values {
                let a = P.Limbs(x.limbs(count: P.Limbs.count)), b = P.Limbs(y.limbs(count: P.Limbs.count))
                #expect(
                    P.montgomeryProduct(a, b)
                        == LimbArithmetic.montgomeryMultiplyLoop(a, b, modulus: P.modulus, negativeInverse: P.negativeInverse),
                    "\(x.string(base: 16)) * \(y.string(base: 16))")
                #expect(P.modularSum(a, b) == LimbArithmetic.modularSum(a, b, modulus: P.modulus))
                #expect(P.modularDifference(a, b) == LimbArithmetic.modularDifference(a, b, modulus: P.modulus))
            }
        }
        // The Fp2 product, two interleaved sums of products (its extremes: a1 = 0, where the
        // first sum takes p - a1 = p, and sums of the largest values), against Karatsuba on
        // the reference loops.
        func product(_ a: P.Limbs, _ b: P.Limbs) -> P.Limbs {
            LimbArithmetic.montgomeryMultiplyLoop(a, b, modulus: P.modulus, negativeInverse: P.negativeInverse)
        }
        func sum(_ a: P.Limbs, _ b: P.Limbs) -> P.Limbs { LimbArithmetic.modularSum(a, b, modulus: P.modulus) }
        func difference(_ a: P.Limbs, _ b: P.Limbs) -> P.Limbs { LimbArithmetic.modularDifference(a, b, modulus: P.modulus) }
        let limbs = values.map { P.Limbs($0.limbs(count: P.Limbs.count)) }
        var failures = 0
        for a0 in limbs {
            for a1 in limbs {
                for b0 in limbs {
                    for b1 in limbs {
                        let t0 = product(a0, b0), t1 = product(a1, b1), cross = product(sum(a0, a1), sum(b0, b1))
                        let c = P.fp2Product(Fp2(Fp(montgomery: a0), Fp(montgomery: a1)), Fp2(Fp(montgomery: b0), Fp(montgomery: b1)))
                        if c.c0.montgomery != difference(t0, t1) || c.c1.montgomery != difference(difference(cross, t0), t1) {
                            failures += 1
                        }
                    }
                }
            }
        }
        #expect(failures == 0, "Fp2 products of edge values")
    }

    @Test func edgesBN254CX() { checkEdges(BN254CXField.self) }
    @Test func edgesBLS12381() { checkEdges(BLS12_381Field.self) }
}

/// The fields' Fp4 and Fp12 products and squares, cyclotomic squarings and products by lines
/// (C on x86-64 builds), also in place, against the Swift formulas they replace, on random
/// elements (the formulas are the same polynomial maps inside or outside the cyclotomic
/// subgroup). The Fp12 square in C is complex squaring over Fp6, the Swift one Chung-Hasan's
/// SQR2 over Fp4: two formulas, one value.
struct TowerKernelTests {
    func check<P: CyclotomicSquaring>(_: P.Type) {
        var generator = FieldPropertyTests.Generator(state: 31)
        func fp2() -> Fp2<P> {
            Fp2(
                Fp(BigInt.random(in: .zero, P.modulusBig, using: &generator)),
                Fp(BigInt.random(in: .zero, P.modulusBig, using: &generator)))
        }
        let maximum = Fp2<P>(Fp(P.modulusBig - .one), Fp(P.modulusBig - .one))
        var failures = 0
        for round in 0..<500 {
            // The first rounds use the largest values and zeros.
            let a = round == 0 ? Fp4(maximum, maximum) : round == 1 ? Fp4(.zero, maximum) : Fp4(fp2(), fp2())
            let b = round == 0 ? Fp4(maximum, maximum) : Fp4(fp2(), fp2())
            if P.fp4Product(a, b) != Fp4.karatsubaProduct(a, b) { failures += 1 }
            if P.fp4Squared(a) != a.karatsubaSquared { failures += 1 }
            let x = Fp12(a, b, round == 0 ? Fp4(maximum, maximum) : Fp4(fp2(), fp2()))
            if P.fp12CyclotomicSquared(x) != x.grangerScottSquared { failures += 1 }
            failures += compressedSquareFailures(x)
            let y = Fp12(Fp4(fp2(), fp2()), round == 0 ? Fp4(maximum, maximum) : Fp4(fp2(), fp2()), Fp4(fp2(), fp2()))
            if P.fp12Product(x, y) != Fp12.karatsubaProduct(x, y) { failures += 1 }
            if P.fp12Squared(x) != x.chungHasanSquared { failures += 1 }
            let lineB = round == 0 ? maximum : fp2()
            failures += inPlaceFailures(x, y, a: a, b: lineB)
            for bAtKSquared in [false, true] {
                if P.fp12ProductByLine(x, a: a, b: lineB, bAtKSquared: bAtKSquared) != x.sparseProduct(a: a, b: lineB, bAtKSquared: bAtKSquared) {
                    failures += 1
                }
                let normalized = Self.withYInBaseField(a, bAtKSquared: bAtKSquared)
                if P.fp12ProductByNormalizedLine(x, a: normalized, b: lineB, bAtKSquared: bAtKSquared)
                    != x.sparseProduct(a: normalized, b: lineB, bAtKSquared: bAtKSquared)
                {
                    failures += 1
                }
            }
        }
        // The lazily reduced Fp12 kernels keep sums of up to five double-width products before
        // reducing: every coefficient at p - 1, or at p - 1 and zero by turns, gives the largest
        // sums and the most negative differences.
        // (In Montgomery form: the limbs themselves are p - 1.)
        var topLimbs = P.modulus
        topLimbs[0] -= 1
        let top = Fp<P>(montgomery: topLimbs)
        let fullMaximum = Fp4(Fp2(top, top), Fp2(top, top))
        let alternating = Fp4(Fp2(top, .zero), Fp2(.zero, top))
        let topFp2 = Fp2(top, top)
        for (x, y) in [
            (Fp12(fullMaximum, fullMaximum, fullMaximum), Fp12(fullMaximum, fullMaximum, fullMaximum)),
            (Fp12(alternating, fullMaximum, alternating), Fp12(fullMaximum, alternating, .zero)),
            (Fp12(.zero, alternating, fullMaximum), Fp12(alternating, .zero, alternating))
        ] {
            if P.fp12Product(x, y) != Fp12.karatsubaProduct(x, y) { failures += 1 }
            if P.fp12Squared(x) != x.chungHasanSquared { failures += 1 }
            if P.fp12Squared(y) != y.chungHasanSquared { failures += 1 }
            failures += compressedSquareFailures(x) + compressedSquareFailures(y)
            // The Fp4 squares' most negative sum (both squares): one half zero, the other at p - 1.
            let lopsided = Fp12(Fp4(.zero, topFp2), Fp4(.zero, topFp2), Fp4(.zero, topFp2))
            failures += compressedSquareFailures(lopsided)
            for z in [x, y, lopsided] where P.fp12CyclotomicSquared(z) != z.grangerScottSquared { failures += 1 }
            failures += inPlaceFailures(x, y, a: fullMaximum, b: topFp2) + inPlaceFailures(y, x, a: alternating, b: topFp2)
            for bAtKSquared in [false, true] {
                for (a, b) in [(fullMaximum, topFp2), (alternating, topFp2), (fullMaximum, Fp2<P>.zero)] {
                    if P.fp12ProductByLine(x, a: a, b: b, bAtKSquared: bAtKSquared) != x.sparseProduct(a: a, b: b, bAtKSquared: bAtKSquared) {
                        failures += 1
                    }
                    let normalized = Self.withYInBaseField(a, bAtKSquared: bAtKSquared)
                    if P.fp12ProductByNormalizedLine(x, a: normalized, b: b, bAtKSquared: bAtKSquared)
                        != x.sparseProduct(a: normalized, b: b, bAtKSquared: bAtKSquared)
                    {
                        failures += 1
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    /// Karabina's compressed square in C (Fp4 squares left double-width, sums of up to three
    /// double-width squares before each reduction) against the Swift formulas, once and twice:
    /// the two are the same polynomials, so any value will do, not only cyclotomic ones.
    func compressedSquareFailures<P: CyclotomicSquaring>(_ x: Fp12<P>) -> Int {
        var kernel = CompressedCyclotomic(x)
        P.compressedCyclotomicSquare(&kernel, times: 1)
        var failures = kernel == CompressedCyclotomic(x).squared ? 0 : 1
        P.compressedCyclotomicSquare(&kernel, times: 1)
        if kernel != CompressedCyclotomic(x).squared.squared { failures += 1 }
        return failures
    }

    /// The in-place forms (the Miller loop's square and line products, `Fp12.*=`, the cyclotomic
    /// square of GT powers) against the same references: there the kernels read and write one
    /// buffer.
    func inPlaceFailures<P: CyclotomicSquaring>(_ x: Fp12<P>, _ y: Fp12<P>, a: Fp4<P>, b: Fp2<P>) -> Int {
        var failures = 0
        var square = x
        square.formSquare()
        if square != x.chungHasanSquared { failures += 1 }
        var cyclotomic = x
        cyclotomic.formCyclotomicSquare()
        if cyclotomic != x.grangerScottSquared { failures += 1 }
        var product = x
        product *= y
        if product != Fp12.karatsubaProduct(x, y) { failures += 1 }
        for bAtKSquared in [false, true] {
            var lined = x
            P.fp12MultiplyByLine(&lined, a: a, b: b, bAtKSquared: bAtKSquared)
            if lined != x.sparseProduct(a: a, b: b, bAtKSquared: bAtKSquared) { failures += 1 }
            let normalized = Self.withYInBaseField(a, bAtKSquared: bAtKSquared)
            var normalizedLined = x
            P.fp12MultiplyByNormalizedLine(&normalizedLined, a: normalized, b: b, bAtKSquared: bAtKSquared)
            if normalizedLined != x.sparseProduct(a: normalized, b: b, bAtKSquared: bAtKSquared) { failures += 1 }
        }
        return failures
    }

    /// `a` with its y_P coefficient (c0 on a D-type twist, c1 on an M-type one) moved into Fp,
    /// the shape of a line evaluated from ly = 1.
    static func withYInBaseField<P: TowerParameters>(_ a: Fp4<P>, bAtKSquared: Bool) -> Fp4<P> {
        bAtKSquared ? Fp4(a.c0, Fp2(a.c1.c0, .zero)) : Fp4(Fp2(a.c0.c0, .zero), a.c1)
    }

    @Test func bn254cx() { check(BN254CXField.self) }
    @Test func bls12381() { check(BLS12_381Field.self) }
}

/// The sliding-window exponentiation against GMP's powm, for exponents of every shape: zero,
/// one, single bits, runs of ones, sparse and dense random values, several limbs.
struct FieldPowerTests {
    func check<P: PrimeFieldParameters>(_: P.Type) {
        var generator = FieldPropertyTests.Generator(state: 77)
        let p = P.modulusBig
        var exponents: [[UInt64]] = [
            [0], [1], [2], [3], [15], [16], [17], [31], [0x8000_0000_0000_0000],
            [.max], [0, 1], [.max, .max], [0x1111_1111_1111_1111, 0x8421]
        ]
        exponents += (0..<40).map { _ in (0..<Int.random(in: 1...6, using: &generator)).map { _ in generator.next() } }
        exponents.append(P.inverseExponent)
        exponents.append(P.squareRootExponent)
        for exponent in exponents {
            let base = BigInt.random(in: .one, p, using: &generator)
            let expected = base.power(BigInt(limbs: exponent), modulus: p)
            #expect(Fp<P>(base).power(limbs: exponent).bigInt == expected, "exponent \(exponent)")
        }
    }

    @Test func bn254cx() { check(BN254CXField.self) }
    @Test func bls12381() { check(BLS12_381Field.self) }
}

/// The blinded Euclid inversion (a fresh random blind each call) against Fermat's a^(p-2) and
/// GMP, repeated on the same inputs so that many blinds meet each value.
struct BlindedInverseTests {
    init() { GMPFieldInversion.install() }

    func check<P: PrimeFieldParameters>(_: P.Type) {
        var generator = FieldPropertyTests.Generator(state: 91)
        let p = P.modulusBig
        var values = [BigInt.one, BigInt(2), p - .one, p - BigInt(2), (p - .one) / BigInt(2)]
        values += (0..<300).map { _ in BigInt.random(in: .one, p, using: &generator) }
        var failures = 0
        for value in values {
            let x = Fp<P>(value)
            let expected = value.inverse(modulus: p)!
            for _ in 0..<3 where x.blindedInverse().bigInt != expected { failures += 1 }
            if x.fermatInverse().bigInt != expected { failures += 1 }
            if x * x.inverse != .one { failures += 1 }
        }
        #expect(failures == 0)
        #expect(Fp<P>.zero.blindedInverse().isZero)
        #expect(Fp<P>.zero.fermatInverse().isZero)
    }

    @Test func bn254cx() { check(BN254CXField.self) }
    @Test func bls12381() { check(BLS12_381Field.self) }

    /// The blinds come from a pool of system randomness: every draw fresh, across several
    /// refills of the pool (a draw handed out twice, or the pool's zeroed bytes, would repeat).
    @Test func blindingDrawsAreFresh() {
        var seen = Set<[UInt8]>()
        var repeats = 0
        for count in [32, 48, 7] {
            for _ in 0..<400 {
                var bytes = [UInt8](repeating: 0, count: count)
                bytes.withUnsafeMutableBytes { fillRandom($0) }
                if !seen.insert(bytes).inserted { repeats += 1 }
            }
        }
        #expect(repeats == 0)
    }
}
