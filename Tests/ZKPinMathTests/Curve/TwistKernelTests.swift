import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// G2's complete sum and doubling in C (`TowerParameters.twistSum`, x86-64 builds) against
/// `Point`'s Swift formulas: the same polynomial maps, so the same projective coordinates
/// word for word, on points of G2 with any Z, the cases the formulas cover without a branch
/// (P + P, P + (-P), infinity), and triples that are not on the curve at all; likewise the Miller
/// loop's doubling and addition steps on a live T (`LiveLines.doubling` and `add` against
/// `swiftDoubling` and `swiftAdd`).
struct TwistKernelTests {
    @Test func sumsAndDoublingsEqualTheSwiftFormulas() {
        check(BN254CX.self)
        check(BLS12_381.self)
    }

    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        func fp2() -> Fp2<C.Field> {
            Fp2(
                Fp(BigInt.random(in: .zero, C.Field.modulusBig, using: &random)),
                Fp(BigInt.random(in: .zero, C.Field.modulusBig, using: &random)))
        }
        /// A random multiple of the generator, its coordinates scaled by a random factor.
        func point() -> G2Point<C> {
            let p = C.g2Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
            let scale = fp2()
            return Point(projectiveX: p.x * scale, y: p.y * scale, z: p.z * scale)
        }
        func same(_ a: G2Point<C>, _ b: G2Point<C>) -> Bool { a.x == b.x && a.y == b.y && a.z == b.z }
        var pairs: [(G2Point<C>, G2Point<C>)] = (0..<24).map { _ in (point(), point()) }
        let p = point()
        pairs += [(p, p), (p, -p), (p, .infinity), (.infinity, p), (.infinity, .infinity), (C.g2Generator, C.g2Generator)]
        pairs += (0..<8).map { _ in (Point(projectiveX: fp2(), y: fp2(), z: fp2()), Point(projectiveX: fp2(), y: fp2(), z: fp2())) }
        for (a, b) in pairs {
            #expect(same(a + b, Point.completeSum(a, b)), "\(C.self) sum: \(random.replay)")
            #expect(same(a.doubled, a.completeDoubled), "\(C.self) doubling: \(random.replay)")
        }
        // The results are the group law's: 2P = P + P, P + (-P) = O.
        #expect((p + p) == p.doubled && (p + (-p)).isInfinity && (p.doubled - p) == p, "\(random.replay)")
        // The Miller loop's doubling and addition steps: the same line and the same T, step
        // after step (an addition of R = Q or -Q after every third doubling).
        let q = C.g2Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random)).affine!
        var kernel = LiveLines<C>(q), reference = LiveLines<C>(q)
        for step in 0..<12 {
            let negated = step % 2 == 0
            let (line, expected) =
                step % 3 == 2
                ? (kernel.addition(negated: negated), reference.swiftAdd(negated ? (q.x, -q.y) : q))
                : (kernel.doubling(), reference.swiftDoubling())
            #expect(line.ly == expected.ly && line.lx == expected.lx && line.lc == expected.lc, "step \(step): \(random.replay)")
            #expect(kernel.x == reference.x && kernel.y == reference.y && kernel.z == reference.z, "step \(step): \(random.replay)")
        }
    }
}
