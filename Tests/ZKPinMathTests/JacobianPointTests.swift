import Testing
import ZKPinMath

/// The Jacobian formulas of public scalar multiplication against the complete projective ones,
/// including the cases the Jacobian addition takes apart (P + P, P + (-P), infinity).
struct JacobianPointTests {
    func check<G: CurveGroup>(_: G.Type) {
        for _ in 0..<10 {
            let p = G.generator.multiplied(byPublic: BigInt.random(in: .one, G.order))
            let q = G.generator.multiplied(byPublic: BigInt.random(in: .one, G.order))
            let jp = JacobianPoint(p), jq = JacobianPoint(q)
            #expect(jp.projective == p)
            #expect(jp.doubled.projective == p.doubled)
            #expect((jp + jq).projective == p + q)
            #expect((jp + jp).projective == p.doubled)
            #expect((jp + (-jp)).isInfinity)
            #expect((jp + .infinity).projective == p)
            #expect((JacobianPoint<G>.infinity + jq).projective == q)
            #expect(JacobianPoint<G>.infinity.doubled.isInfinity)
            // Mixed addition with an affine point, and its special cases.
            let (qx, qy) = q.affine!
            #expect(jp.adding(affine: (qx, qy)).projective == p + q)
            #expect(jq.adding(affine: (qx, qy)).projective == q.doubled)
            #expect(jq.adding(affine: (qx, -qy)).isInfinity)
            #expect(JacobianPoint<G>.infinity.adding(affine: (qx, qy)).projective == q)
            // A projective input with Z != 1 converts correctly.
            let scaled = Point<G>(projectiveX: p.x * q.x, y: p.y * q.x, z: p.z * q.x)
            #expect(JacobianPoint(scaled).projective == p)
        }
    }

    @Test func g1BN254CX() { check(G1<BN254CX>.self) }
    @Test func g1BLS12381() { check(G1<BLS12_381>.self) }
    @Test func g2BN254CX() { check(G2<BN254CX>.self) }
    @Test func g2BLS12381() { check(G2<BLS12_381>.self) }
}
