import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// GLS on G2 and the GT powers (`FrobeniusEndomorphism`) against the simple paths they replace:
/// ψ against λ·Q, the decompositions and the GLV-SAC recoding against GMP, k·Q against the
/// full-width constant-time windows, x^k in GT against Fp12's square-and-multiply; seeded random
/// inputs (the seed is printed on failure) and edge scalars.
struct FrobeniusEndomorphismTests {
    static func signed(_ limbs: [UInt64]) -> BigInt {
        let mask = LimbArithmetic.negativeMask(limbs)
        let magnitude = BigInt(limbs: LimbArithmetic.conditionallyNegated(limbs, mask))
        return mask == 0 ? magnitude : -magnitude
    }

    static func scalars<C: PairingCurve>(_: C.Type, random: inout SeededRandom, count: Int) -> [BigInt] {
        let r = C.order, lambda = C.frobeniusEndomorphism.lambda
        let edges = [
            BigInt.zero, .one, BigInt(2), BigInt(3), r - .one, r - BigInt(2), lambda, (lambda * lambda).mod(r),
            (lambda * lambda * lambda).mod(r), (r - lambda).mod(r), BigInt.one.shiftedLeft(64) - .one,
            BigInt.one.shiftedLeft(C.frobeniusEndomorphism.bits) - .one
        ]
        return edges + (0..<count).map { _ in BigInt.random(in: .zero, r, using: &random) }
    }

    func checkDecomposition<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let endomorphism = C.frobeniusEndomorphism
        let r = C.order, lambda = endomorphism.lambda
        let bound = BigInt.one.shiftedLeft(endomorphism.bits)
        #expect(endomorphism.bits <= (r.bitWidth + 3) / 4 + 2, "\(endomorphism.bits) bits for r of \(r.bitWidth)")
        for k in Self.scalars(C.self, random: &random, count: 200) {
            let powers = [BigInt.one, lambda, (lambda * lambda).mod(r), (lambda * lambda * lambda).mod(r)]
            func check(_ parts: [BigInt], _ what: String) {
                var sum = BigInt.zero
                for i in 0..<4 { sum = sum + parts[i] * powers[i] }
                #expect((sum - k).mod(r).isZero, "\(what) of \(k.string(base: 16)), \(random.replay)")
                for part in parts {
                    #expect((part.isNegative ? -part : part) < bound, "\(what): \(part) too wide, \(random.replay)")
                }
            }
            check(endomorphism.decompose(k), "GMP decomposition")
            let parts = endomorphism.decomposeSecret(k.mod(r).limbs(count: FrobeniusEndomorphism<C>.width))
            check(parts.map(Self.signed), "fixed-width decomposition")
            // The recoding gives the same integers back: k0 (made odd) from digits ±1, the
            // others from digits 0 or the column's sign, bases negated for negative k_i.
            let recoding = endomorphism.recode(parts)
            #expect(recoding.columns.count == endomorphism.bits + 1)
            var values = [BigInt](repeating: .zero, count: 4)
            for i in stride(from: recoding.columns.count - 1, through: 0, by: -1) {
                let sign = recoding.negative[i] == 0 ? BigInt.one : -BigInt.one
                values[0] = values[0] * BigInt(2) + sign
                for j in 1..<4 {
                    values[j] = values[j] * BigInt(2) + ((recoding.columns[i] >> UInt8(j - 1)) & 1 == 1 ? sign : .zero)
                }
            }
            if recoding.even != 0 { values[0] = values[0] - .one }
            for i in 0..<4 where recoding.signs[i] != 0 { values[i] = -values[i] }
            #expect(values == parts.map(Self.signed), "recoding of \(k.string(base: 16)), \(random.replay)")
        }
    }

    @Test func decompositionBN() { checkDecomposition(BN254CX.self) }
    @Test func decompositionBLS() { checkDecomposition(BLS12_381.self) }

    func checkG2<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let endomorphism = C.frobeniusEndomorphism
        let q = C.g2Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        // ψ acts as λ = p mod r on G2 (and ψ^4 - ψ^2 + 1 = 0 on BLS12, r = λ^4 - λ^2 + 1 there).
        #expect(endomorphism.psi(q) == q.multiplied(byPublic: endomorphism.lambda), "\(random.replay)")
        #expect(endomorphism.psi(C.g2Generator) == C.g2Generator.multiplied(byPublic: endomorphism.lambda))
        #expect(endomorphism.psi(.infinity).isInfinity)
        for k in Self.scalars(C.self, random: &random, count: 6) {
            let secret = SecretScalar<C>(public: k)
            let expected = q.multipliedFullWidth(bySecret: secret)
            #expect(q.multiplied(bySecret: secret) == expected, "GLS \(k.string(base: 16)), \(random.replay)")
            #expect(q.multipliedInG2(bySecret: k) == expected, "GLS (BigInt) \(k.string(base: 16)), \(random.replay)")
        }
        #expect(G2Point<C>.infinity.multiplied(bySecret: SecretScalar<C>(5)).isInfinity)
        // The complete formulas' 3b'·x by sums (G2.timesB3) against the Fp2 product it replaces.
        for _ in 0..<50 {
            let x = Fp2<C.Field>(
                Fp(BigInt.random(in: .zero, C.Field.modulusBig, using: &random)),
                Fp(BigInt.random(in: .zero, C.Field.modulusBig, using: &random)))
            #expect(G2<C>.timesB3(x) == C.g2B3 * x, "\(random.replay)")
        }
        #expect(G2<C>.timesB3(.zero) == .zero)
        #expect(G2<C>.timesB3(.one) == C.g2B3)
    }

    @Test func glsBN() { checkG2(BN254CX.self) }
    @Test func glsBLS() { checkG2(BLS12_381.self) }

    func checkGT<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        // GT elements: a pairing value, and the final exponentiation of a random Fp12.
        let e = Pairing<C>.pairing(C.g1Generator, C.g2Generator)
        let x = Pairing<C>.finalExponentiation(PairingDefinitionsTests.randomFp12(C.self, using: &random))
        #expect(x.frobenius == x.power(C.frobeniusEndomorphism.lambda), "\(random.replay)")
        for (index, k) in Self.scalars(C.self, random: &random, count: 4).enumerated() {
            let base = index % 2 == 0 ? e : x
            let expected = base.power(k)
            #expect(Pairing<C>.gtPower(base, bySecret: SecretScalar<C>(public: k)) == expected, "GT \(k.string(base: 16)), \(random.replay)")
            #expect(Pairing<C>.gtPower(base, bySecret: k) == expected, "GT (BigInt) \(k.string(base: 16)), \(random.replay)")
        }
        #expect(Pairing<C>.gtPower(.one, bySecret: SecretScalar<C>(7)).isOne)
    }

    @Test func gtPowerBN() { checkGT(BN254CX.self) }
    @Test func gtPowerBLS() { checkGT(BLS12_381.self) }
}
