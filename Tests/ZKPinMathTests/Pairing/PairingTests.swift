import Testing
import ZKPinMath
import ZKPinTestSupport

/// Bilinearity and non-degeneracy on both curves, with random scalars.
struct PairingTests {
    func checkBilinearity<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let g1 = C.g1Generator, g2 = C.g2Generator
        let a = BigInt.random(in: .one, C.order, using: &random)
        let b = BigInt.random(in: .one, C.order, using: &random)
        let base = Pairing<C>.pairing(g1, g2)
        #expect(!base.isOne, "e(G1, G2) must not be 1 \(random.replay)")
        #expect(base.power(C.order).isOne, "e(G1, G2)^r must be 1 \(random.replay)")
        let left = Pairing<C>.pairing(g1.multiplied(byPublic: a), g2.multiplied(byPublic: b))
        #expect(left == base.power((a * b).mod(C.order)), "e(aP, bQ) == e(P, Q)^(ab) \(random.replay)")
        let right = Pairing<C>.pairing(g1.multiplied(byPublic: (a * b).mod(C.order)), g2)
        #expect(left == right, "e(aP, bQ) == e(abP, Q) \(random.replay)")
        // e(aP, Q) · e(-aP, Q) == 1 through the shared final exponentiation.
        let aP = g1.multiplied(byPublic: a)
        #expect(Pairing<C>.product([(aP, g2), (-aP, g2)]).isOne, "\(random.replay)")
        #expect(Pairing<C>.product([(aP, g2), (g1, g2)]) == base.power((a + .one).mod(C.order)), "\(random.replay)")
    }

    @Test func bn254cxBilinear() { checkBilinearity(BN254CX.self) }
    @Test func bls12381Bilinear() { checkBilinearity(BLS12_381.self) }

    @Test func generatorsAreInTheirGroups() {
        #expect(BN254CX.g1Generator.isOnCurve && BN254CX.g1Generator.isInSubgroup)
        #expect(BN254CX.g2Generator.isOnCurve && BN254CX.g2Generator.isInSubgroup)
        #expect(BLS12_381.g1Generator.isOnCurve && BLS12_381.g1Generator.isInSubgroup)
        #expect(BLS12_381.g2Generator.isOnCurve && BLS12_381.g2Generator.isInSubgroup)
    }

    @Test func secretAndPublicScalarMultiplicationAgree() {
        var random = SeededRandom()
        for _ in 0..<4 {
            let k = BigInt.random(in: .zero, BN254CX.order, using: &random)
            #expect(BN254CX.g1Generator.multiplied(bySecret: k) == BN254CX.g1Generator.multiplied(byPublic: k), "\(random.replay)")
            #expect(BLS12_381.g2Generator.multiplied(bySecret: k) == BLS12_381.g2Generator.multiplied(byPublic: k), "\(random.replay)")
        }
        #expect(BN254CX.g1Generator.multiplied(bySecret: .zero).isInfinity, "\(random.replay)")
        #expect(BN254CX.g2Generator.multiplied(bySecret: BN254CX.order).isInfinity, "\(random.replay)")
    }
}
