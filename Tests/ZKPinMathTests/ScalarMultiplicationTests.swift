import Testing
import ZKPinMath

/// The width-5 NAF and GLV public multiplications against plain double-and-add.
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
        let edges = [BigInt.zero, .one, BigInt(2), BigInt(15), BigInt(16), BigInt(17), r - .one, r, r + .one,
                     C.g1Endomorphism.lambda, C.g1Endomorphism.lambda + .one, BigInt.one.shiftedLeft(128) - .one]
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
            #expect(k1.bitWidth <= halfBits + 2 && k2.bitWidth <= halfBits + 2,
                    "\(k1.bitWidth) and \(k2.bitWidth) bits for r of \(r.bitWidth)")
        }
        #expect(G2Point<C>.infinity.multiplied(byPublic: BigInt(5)).isInfinity)
        let q = C.g2Generator
        #expect(q.multiplied(byPublic: BigInt(77)) == Self.doubleAndAdd(q, BigInt(77)))
    }

    @Test func bn254cx() { checkCurve(BN254CX.self) }
    @Test func bls12381() { checkCurve(BLS12_381.self) }

    /// The NAF multiplication works on points outside G1 too (cofactor clearing), where GLV
    /// would not apply.
    @Test func nafOutsideTheSubgroup() {
        let outside = SubgroupCheckTests.randomCurvePoint()
        let k = BLS12_381.g1Cofactor
        #expect(outside.multiplied(byPublic: k) == Self.doubleAndAdd(outside, k))
    }
}
