import Testing
import ZKPinMath
import ZKPinTestSupport

/// The Jacobian formulas of public scalar multiplication against the complete projective ones,
/// including the cases the Jacobian addition takes apart (P + P, P + (-P), infinity).
struct JacobianPointTests {
    func check<G: CurveGroup>(_: G.Type) {
        var random = SeededRandom()
        for _ in 0..<10 {
            let p = G.generator.multiplied(byPublic: BigInt.random(in: .one, G.order, using: &random))
            let q = G.generator.multiplied(byPublic: BigInt.random(in: .one, G.order, using: &random))
            let jp = JacobianPoint(p), jq = JacobianPoint(q)
            #expect(jp.projective == p, "\(random.replay)")
            #expect(jp.doubled.projective == p.doubled, "\(random.replay)")
            #expect((jp + jq).projective == p + q, "\(random.replay)")
            #expect((jp + jp).projective == p.doubled, "\(random.replay)")
            #expect((jp + (-jp)).isInfinity, "\(random.replay)")
            #expect((jp + .infinity).projective == p, "\(random.replay)")
            #expect((JacobianPoint<G>.infinity + jq).projective == q, "\(random.replay)")
            #expect(JacobianPoint<G>.infinity.doubled.isInfinity, "\(random.replay)")
            // Mixed addition with an affine point, and its special cases.
            let (qx, qy) = q.affine!
            #expect(jp.adding(affine: (qx, qy)).projective == p + q, "\(random.replay)")
            #expect(jq.adding(affine: (qx, qy)).projective == q.doubled, "\(random.replay)")
            #expect(jq.adding(affine: (qx, -qy)).isInfinity, "\(random.replay)")
            #expect(JacobianPoint<G>.infinity.adding(affine: (qx, qy)).projective == q, "\(random.replay)")
            // A projective input with Z != 1 converts correctly.
            let scaled = Point<G>(projectiveX: p.x * q.x, y: p.y * q.x, z: p.z * q.x)
            #expect(JacobianPoint(scaled).projective == p, "\(random.replay)")
        }
    }

    @Test func g1BN254CX() { check(G1<BN254CX>.self) }
    @Test func g1BLS12381() { check(G1<BLS12_381>.self) }
    @Test func g2BN254CX() { check(G2<BN254CX>.self) }
    @Test func g2BLS12381() { check(G2<BLS12_381>.self) }
}
