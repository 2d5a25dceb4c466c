import Testing
import ZKPinMath
import ZKPinTestSupport

/// Pippenger's sum against one scalar multiplication per point, on random and edge scalars.
struct MultiScalarMultiplicationTests {
    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        for count in [1, 2, 7, 40, 130] {
            var points: [(x: Fp<C.Field>, y: Fp<C.Field>)] = [], scalars: [[UInt64]] = []
            var expected = G1Point<C>.infinity
            for index in 0..<count {
                let point = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
                // Short, full-width, zero and all-ones scalars, and the same point twice.
                let k: BigInt
                switch index % 5 {
                case 0: k = BigInt(random.next())
                case 1: k = BigInt.random(in: .zero, C.order, using: &random)
                case 2: k = .zero
                case 3: k = BigInt(UInt64.max)
                default: k = BigInt.random(in: .zero, BigInt(1 << 20), using: &random)
                }
                let used = index % 7 == 6 && !points.isEmpty ? points[0] : point.affine!
                points.append(used)
                scalars.append(k.limbs(count: 4))
                expected = expected + G1Point<C>(x: used.x, y: used.y).multiplied(byPublic: k)
            }
            let sum = MultiScalarMultiplication<G1<C>>.sum(points: points, scalars: scalars).projective
            #expect(sum == expected, "\(count) points, \(random.replay)")
        }
        // Many copies of a few points and their negatives, so that buckets meet the same x
        // again (doubling and cancelling in the side sums), among distinct points.
        do {
            let few = (0..<3).map { _ in C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random)).affine! }
            var points: [(x: Fp<C.Field>, y: Fp<C.Field>)] = [], scalars: [[UInt64]] = []
            var expected = G1Point<C>.infinity
            for index in 0..<90 {
                let base = index % 4 == 3 ? C.g1Generator.multiplied(byPublic: BigInt(index + 2)).affine! : few[index % 3]
                let used = index % 5 == 0 ? (x: base.x, y: -base.y) : base
                let k = BigInt(UInt64(index % 6 == 0 ? 7 : random.next() % 64 + 1))
                points.append(used)
                scalars.append(k.limbs(count: 1))
                expected = expected + G1Point<C>(x: used.x, y: used.y).multiplied(byPublic: k)
            }
            let sum = MultiScalarMultiplication<G1<C>>.sum(points: points, scalars: scalars).projective
            #expect(sum == expected, "repeated points, \(random.replay)")
        }
        // P and -P cancel.
        let p = C.g1Generator.affine!
        let zero = MultiScalarMultiplication<G1<C>>.sum(points: [p, (p.x, -p.y)], scalars: [[5], [5]])
        #expect(zero.isInfinity)
        #expect(MultiScalarMultiplication<G1<C>>.sum(points: [], scalars: []).isInfinity)
    }

    @Test func bn254cx() { check(BN254CX.self) }
    @Test func bls12_381() { check(BLS12_381.self) }
}
