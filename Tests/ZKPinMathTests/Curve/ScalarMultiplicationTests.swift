import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// The width-5 NAF and GLV multiplications (public and constant-time secret) against plain
/// double-and-add and the full-width constant-time method.
struct ScalarMultiplicationTests {
    /// k·P by the textbook left-to-right binary method: the reference.
    static func doubleAndAdd<G: CurveGroup>(_ p: Point<G>, _ k: BigInt) -> Point<G> {
        var result = Point<G>.infinity
        var index = k.bitWidth - 1
        while index >= 0 {
            result = result.doubled
            if k.bit(index) { result = result + p }
            index -= 1
        }
        return result
    }

    static func scalars<C: PairingCurve>(_: C.Type) -> [BigInt] {
        let r = C.order
        var generator = FieldPropertyTests.Generator(state: 7)
        let edges = [
            BigInt.zero, .one, BigInt(2), BigInt(15), BigInt(16), BigInt(17), r - .one, r, r + .one,
            C.g1Endomorphism.lambda, C.g1Endomorphism.lambda + .one, BigInt.one.shiftedLeft(128) - .one
        ]
        return edges + (0..<12).map { _ in BigInt.random(in: .zero, r, using: &generator) }
    }

    func checkCurve<C: PairingCurve>(_: C.Type) {
        let endomorphism = C.g1Endomorphism
        let r = C.order
        let p = C.g1Generator.multiplied(byPublic: BigInt(123_457))
        // φ acts on G1 as λ.
        #expect(endomorphism.apply(p) == Self.doubleAndAdd(p, endomorphism.lambda))
        #expect((endomorphism.lambda * endomorphism.lambda + endomorphism.lambda + .one).mod(r).isZero)
        let halfBits = (r.bitWidth + 1) / 2
        for k in Self.scalars(C.self) {
            let expected = Self.doubleAndAdd(p, k)
            #expect(p.multiplied(byPublic: k) == expected, "NAF \(k.string(base: 16))")
            #expect(p.multipliedInG1(byPublic: k) == expected, "GLV \(k.string(base: 16))")
            let (k1, k2) = endomorphism.decompose(k.mod(r))
            #expect((k1 + k2 * endomorphism.lambda - k).mod(r).isZero, "decomposition")
            // Both halves about √r (a few bits of slack for the rounding).
            #expect(
                k1.bitWidth <= halfBits + 2 && k2.bitWidth <= halfBits + 2,
                "\(k1.bitWidth) and \(k2.bitWidth) bits for r of \(r.bitWidth)")
        }
        #expect(G2Point<C>.infinity.multiplied(byPublic: BigInt(5)).isInfinity)
        let q = C.g2Generator
        #expect(q.multiplied(byPublic: BigInt(77)) == Self.doubleAndAdd(q, BigInt(77)))
    }

    /// The constant-time GLV: the fixed-width decomposition (signed k1 + k2·λ ≡ k, both within
    /// the windows) and the product against the full-width constant-time multiplication.
    func checkSecret<C: PairingCurve>(_: C.Type) {
        let endomorphism = C.g1Endomorphism, glv = endomorphism.secret
        let r = C.order
        let p = C.g1Generator.multiplied(byPublic: BigInt(555_555))
        var generator = FieldPropertyTests.Generator(state: 11)
        let randomScalars = (0..<200).map { _ in BigInt.random(in: .zero, r, using: &generator) }
        for k in Self.scalars(C.self) + randomScalars {
            let reduced = k.mod(r)
            let (m1, mask1, m2, mask2) = glv.decompose(reduced.limbs(count: SecretGLV<C>.width))
            let k1 = BigInt(limbs: m1) * (mask1 == 0 ? .one : BigInt(-1))
            let k2 = BigInt(limbs: m2) * (mask2 == 0 ? .one : BigInt(-1))
            #expect((k1 + k2 * endomorphism.lambda - reduced).mod(r).isZero, "decomposition of \(k.string(base: 16))")
            #expect(BigInt(limbs: m1).bitWidth <= glv.bits && BigInt(limbs: m2).bitWidth <= glv.bits)
            #expect(mask1 == 0 || mask1 == .max)
            // The signed base-32 digits of each half give it back, every digit in [-16, 15].
            for magnitude in [m1, m2] {
                let (digits, signs) = SecretGLV<C>.signedDigits(magnitude, count: glv.digits)
                var value = BigInt.zero
                for i in stride(from: glv.digits - 1, through: 0, by: -1) {
                    #expect(digits[i] <= 16 && (signs[i] == 0 || signs[i] == .max), "digit \(i) of \(k.string(base: 16))")
                    #expect(digits[i] < 16 || signs[i] == .max, "+16 is not a digit (\(k.string(base: 16)))")
                    value = value.shiftedLeft(5) + (signs[i] == 0 ? BigInt(Int(digits[i])) : -BigInt(Int(digits[i])))
                }
                #expect(value == BigInt(limbs: magnitude), "signed digits of \(k.string(base: 16))")
            }
        }
        // The largest half the bound allows (all ones) recodes without a carry out of the top.
        let largest = (BigInt.one.shiftedLeft(glv.bits) - .one).limbs(count: SecretGLV<C>.width)
        let (topDigits, topSigns) = SecretGLV<C>.signedDigits(largest, count: glv.digits)
        var top = BigInt.zero
        for i in stride(from: glv.digits - 1, through: 0, by: -1) {
            top = top.shiftedLeft(5) + (topSigns[i] == 0 ? BigInt(Int(topDigits[i])) : -BigInt(Int(topDigits[i])))
        }
        #expect(top == BigInt(limbs: largest))
        for k in Self.scalars(C.self) + [BigInt(-5), -r - BigInt(3)] + randomScalars.prefix(24) {
            #expect(p.multipliedInG1(bySecret: k) == p.multiplied(bySecret: k), "secret GLV \(k.string(base: 16))")
        }
        #expect(G1Point<C>.infinity.multipliedInG1(bySecret: BigInt(12345)).isInfinity)
    }

    @Test func secretBN254CX() { checkSecret(BN254CX.self) }
    @Test func secretBLS12381() { checkSecret(BLS12_381.self) }

    /// The bounded constant-time multiplication (PIN scalars) against the full-width one.
    @Test func boundedSecret() {
        checkBounded(BN254CX.self)
        checkBounded(BLS12_381.self)
    }

    /// The 2-bit windows over odd and even bounds (the top window half used or full), on both
    /// entry points, against the variable-time multiplication.
    func checkBounded<C: PairingCurve>(_: C.Type) {
        let p = C.g1Generator.multiplied(byPublic: BigInt(7_777))
        var generator = FieldPropertyTests.Generator(state: 17)
        for bound in [1, 2, 13, 14, 15, 64, 65] {
            let top = BigInt.one.shiftedLeft(bound) - .one
            let randoms = (0..<4).map { _ in BigInt.random(in: .zero, top + .one, using: &generator) }
            for k in [.zero, .one, top] + randoms {
                let expected = p.multiplied(byPublic: k)
                #expect(p.multiplied(bySecret: k, bitBound: bound) == expected, "\(k.string(base: 16)) below 2^\(bound)")
                #expect(
                    p.multiplied(bySecret: SecretScalar<C>(public: k), bitBound: bound) == expected,
                    "\(k.string(base: 16)) below 2^\(bound), GMP-free")
            }
        }
    }

    /// The limb arithmetic on the secret scalars' `[UInt64]` against BigInt on random operands
    /// (two's complement, wrapping).
    @Test func limbArithmeticOnArrays() {
        var generator = FieldPropertyTests.Generator(state: 5)
        let width = SecretGLV<BN254CX>.width
        let modulus = BigInt.one.shiftedLeft(64 * width)
        for _ in 0..<200 {
            let a = BigInt.random(in: .zero, BigInt.one.shiftedLeft(300), using: &generator)
            let b = BigInt.random(in: .zero, BigInt.one.shiftedLeft(300), using: &generator)
            let la = a.limbs(count: width), lb = b.limbs(count: width)
            #expect(BigInt(limbs: LimbArithmetic.lowProduct(la, lb, limbs: (width, width))) == (a * b).mod(modulus))
            // Operands of 1...width limbs (top limbs all ones at times: the rows' last carries),
            // with their lengths as the bounds.
            let sizes = (Int.random(in: 1...width, using: &generator), Int.random(in: 1...width, using: &generator))
            let (x, y) = [sizes.0, sizes.1].map { size in
                Bool.random(using: &generator)
                    ? BigInt.one.shiftedLeft(64 * size) - .one
                    : BigInt.random(in: .zero, BigInt.one.shiftedLeft(64 * size), using: &generator)
            }.pair
            #expect(
                BigInt(limbs: LimbArithmetic.lowProduct(x.limbs(count: width), y.limbs(count: width), limbs: sizes))
                    == (x * y).mod(modulus), "\(sizes)")
            #expect(BigInt(limbs: LimbArithmetic.add(la, lb).0) == (a + b).mod(modulus))
            #expect(BigInt(limbs: LimbArithmetic.add(la, la, carry: 1).0) == (a + a + .one).mod(modulus))
            let (difference, borrow) = LimbArithmetic.subtract(la, lb)
            #expect(BigInt(limbs: difference) == (a - b).mod(modulus))
            #expect((borrow == 1) == (a < b))
            #expect((LimbArithmetic.lessThanMask(la, lb) == .max) == (a < b))
            let mask = LimbArithmetic.negativeMask(difference)
            #expect((mask != 0) == (a < b))
            #expect(BigInt(limbs: LimbArithmetic.conditionallyNegated(difference, mask)) == (a < b ? b - a : a - b))
            #expect(LimbArithmetic.select(mask, la, lb) == (a < b ? la : lb))
            #expect(BigInt(limbs: LimbArithmetic.shiftedRight(la, by: 131)) == a.shiftedRight(131))
            #expect(LimbArithmetic.zeroMask(la) == 0)
        }
        #expect(LimbArithmetic.zeroMask([UInt64](repeating: 0, count: width)) == .max)
    }

    @Test func bn254cx() { checkCurve(BN254CX.self) }
    @Test func bls12381() { checkCurve(BLS12_381.self) }

    /// The NAF multiplication works on points outside G1 too (cofactor clearing), where GLV
    /// would not apply.
    @Test func nafOutsideTheSubgroup() {
        var random = SeededRandom()
        let outside = SubgroupCheckTests.randomCurvePoint(using: &random)
        let k = BLS12_381.g1Cofactor
        #expect(outside.multiplied(byPublic: k) == Self.doubleAndAdd(outside, k), "\(random.replay)")
    }
}

extension Array {
    /// The first two elements.
    fileprivate var pair: (Element, Element) { (self[0], self[1]) }
}
