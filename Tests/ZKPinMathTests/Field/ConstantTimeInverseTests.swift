import Testing
import ZKPinMathGMP
import ZKPinTestSupport

@testable import ZKPinMath

/// The GMP-free constant-time inverses (Fermat over the Montgomery products) against GMP, the
/// oracle, on seeded random values and the edges, and against the paths they replace on the
/// client: the blinded Euclid of `Fp.inverse` and GMP's `mpn_sec_invert` for the scalars.
struct ConstantTimeInverseTests {
    init() { GMPFieldInversion.install() }

    func checkField<P: PrimeFieldParameters>(_: P.Type) {
        var random = SeededRandom()
        let p = P.modulusBig
        var values = [BigInt.one, BigInt(2), BigInt(3), p - .one, p - BigInt(2), (p - .one) / BigInt(2), (p + .one) / BigInt(2)]
        values += (0..<200).map { _ in BigInt.random(in: .one, p, using: &random) }
        for value in values {
            let x = Fp<P>(value)
            let inverse = x.constantTimeInverse
            #expect(inverse.bigInt == GMPInteger(value).inverse(modulus: GMPInteger(p))?.bigInt, "\(P.self) \(value); \(random.replay)")
            #expect(inverse == x.inverse, "\(P.self) against the blinded Euclid; \(random.replay)")
        }
        #expect(Fp<P>.zero.constantTimeInverse.isZero, "0 maps to 0 as `inverse` does")
        // Fp2: conj / norm, against the blinded path and by x·x^-1 = 1.
        for _ in 0..<50 {
            let x = Fp2<P>(Fp(BigInt.random(in: .zero, p, using: &random)), Fp(BigInt.random(in: .one, p, using: &random)))
            #expect(x.constantTimeInverse == x.inverse, "\(P.self) Fp2; \(random.replay)")
            #expect(x * x.constantTimeInverse == .one, "\(P.self) Fp2 x·x^-1; \(random.replay)")
        }
        #expect(Fp2<P>.zero.constantTimeInverse == .zero)
        #expect(Fp2<P>(Fp(1), Fp(0)).constantTimeInverse == .one)
    }

    @Test func fieldBN254CX() { checkField(BN254CXField.self) }
    @Test func fieldBLS12381() { checkField(BLS12_381Field.self) }

    /// Affine coordinates of secret multiples by the constant-time inverse equal the blinded ones.
    func checkPoints<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        for _ in 0..<8 {
            let k = SecretScalar<C>.random(using: &random)
            let p = C.g1Generator.multipliedInG1(bySecret: k), q = C.g2Generator.multiplied(bySecret: k)
            #expect(p.constantTimeAffine! == p.affine!, "\(C.name) G1; \(random.replay)")
            #expect(q.constantTimeAffine! == q.affine!, "\(C.name) G2; \(random.replay)")
        }
        #expect(Point<G1<C>>.infinity.constantTimeAffine == nil)
    }

    @Test func pointsBN254CX() { checkPoints(BN254CX.self) }
    @Test func pointsBLS12381() { checkPoints(BLS12_381.self) }

    func checkScalars<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let r = C.order
        // The Montgomery constants against GMP.
        let arithmetic = ScalarMontgomery(modulus: C.orderLimbs)
        let word = BigInt.one.shiftedLeft(64)
        #expect((BigInt(arithmetic.negativeInverse) * BigInt(limbs: [C.orderLimbs[0]]) + .one).mod(word).isZero, "\(C.name) -r^-1")
        #expect(BigInt(limbs: arithmetic.rSquared) == BigInt.one.shiftedLeft(2 * 64 * C.orderLimbs.count).mod(r), "\(C.name) R^2")
        var values = [BigInt.one, BigInt(2), BigInt(3), r - .one, r - BigInt(2), (r - .one) / BigInt(2)]
        values += (0..<200).map { _ in BigInt.random(in: .one, r, using: &random) }
        for value in values {
            let z = SecretScalar<C>(public: value)
            let inverse = z.inverse
            #expect(
                inverse.map { BigInt(limbs: $0.limbs) } == GMPInteger(value).inverse(modulus: GMPInteger(r))?.bigInt,
                "\(C.name) \(value); \(random.replay)")
            #expect(inverse?.limbs == z.gmpInverse?.limbs, "\(C.name) against mpn_sec_invert; \(random.replay)")
        }
        #expect(SecretScalar<C>(0).inverse == nil)
        #expect(SecretScalar<C>(0).gmpInverse == nil)
    }

    @Test func scalarsBN254CX() { checkScalars(BN254CX.self) }
    @Test func scalarsBLS12381() { checkScalars(BLS12_381.self) }
}
