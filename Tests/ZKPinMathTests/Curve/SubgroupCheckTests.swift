import Testing
import ZKPinMath
import ZKPinTestSupport

/// The BLS12-381 G1 membership test by the endomorphism (φ(P) = -u^2·P) against r·P == O.
struct SubgroupCheckTests {
    typealias C = BLS12_381
    typealias F = Fp<C.Field>

    /// A random point of E(Fp), almost never in G1 (the cofactor is about 2^126).
    static func randomCurvePoint(using random: inout SeededRandom) -> G1Point<C> {
        while true {
            let x = F(BigInt.random(in: .zero, C.Field.modulusBig, using: &random))
            if let y = (x.squared * x + C.g1B).squareRoot { return G1Point(x: x, y: y) }
        }
    }

    static func bySlowCheck(_ p: G1Point<C>) -> Bool { p.multiplied(byPublic: C.order).isInfinity }

    @Test func agreesWithMultiplicationByR() {
        var random = SeededRandom()
        for _ in 0..<10 {
            let inside = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
            #expect(inside.isInSubgroup && Self.bySlowCheck(inside), "\(random.replay)")
            let outside = Self.randomCurvePoint(using: &random)
            #expect(outside.isOnCurve, "\(random.replay)")
            #expect(!outside.isInSubgroup && !Self.bySlowCheck(outside), "\(random.replay)")
            // Clearing the cofactor brings it into G1.
            let cleared = outside.multiplied(byPublic: C.g1Cofactor)
            #expect(cleared.isInSubgroup && Self.bySlowCheck(cleared), "\(random.replay)")
        }
    }

    @Test func rejectsPointsOfEverySmallOrderInTheCofactor() {
        var random = SeededRandom()
        let n = C.g1Cofactor * C.order
        for prime in [3, 11, 10177, 859267, 52437899] {
            let ell = BigInt(prime)
            #expect(C.g1Cofactor.mod(ell) == .zero, "\(prime) divides the G1 cofactor \(random.replay)")
            // The ℓ-primary part of a random point, then multiplied by ℓ down to order exactly ℓ
            // (E(Fp)[ℓ] may be Z/ℓ × Z/ℓ, so n/ℓ alone can kill it).
            var cofactor = n
            while cofactor.mod(ell) == .zero { cofactor = cofactor / ell }
            var torsion = G1Point<C>.infinity
            while torsion.isInfinity { torsion = Self.randomCurvePoint(using: &random).multiplied(byPublic: cofactor) }
            while !torsion.multiplied(byPublic: ell).isInfinity { torsion = torsion.multiplied(byPublic: ell) }
            #expect(torsion.multiplied(byPublic: ell).isInfinity, "a point of order \(prime) \(random.replay)")
            #expect(!torsion.isInSubgroup, "\(random.replay)")
            let shifted = C.g1Generator + torsion
            #expect(!shifted.isInSubgroup && !Self.bySlowCheck(shifted), "\(random.replay)")
        }
    }
}
