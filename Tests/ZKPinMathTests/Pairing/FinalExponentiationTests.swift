import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// The addition-chain final exponentiation against the definition f^((p^12 - 1)/r).
struct FinalExponentiationTests {
    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let p = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        let f = MillerLoop<C>.evaluate([(p, C.g2Generator)])
        let easy1 = f.conjugate * f.inverse
        let easy = easy1.frobenius.frobenius * easy1
        #expect(Pairing<C>.finalExponentiation(f) == easy.power(C.hardPartExponent), "\(random.replay)")
        // Frobenius against the definition x^p.
        #expect(f.frobenius == f.power(C.Field.modulusBig), "\(random.replay)")
        // x^(p^2) by its own constants, against the Frobenius twice, on f and on an element
        // outside every proper subfield and subgroup.
        #expect(f.frobeniusSquared == f.frobenius.frobenius, "\(random.replay)")
        let x = PairingDefinitionsTests.randomFp12(C.self, using: &random)
        #expect(x.frobeniusSquared == x.frobenius.frobenius, "\(random.replay)")
        #expect(x.frobeniusSquared != x, "\(random.replay)")
    }

    @Test func bn254cx() { check(BN254CX.self) }
    @Test func bls12381() { check(BLS12_381.self) }
}
