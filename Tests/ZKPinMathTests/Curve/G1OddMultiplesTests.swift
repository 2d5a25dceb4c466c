import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// The kept odd multiples of a G1 point (the server's y·HID): the same products as double-and-add
/// and as the GLV multiplication that builds its tables per call, on both curves, for edge and
/// random scalars (some at the splits of each half, every h bits), both signs of each GLV half, points
/// given with Z != 1, and infinity.
struct G1OddMultiplesTests {
    @Test func productsEqualDoubleAndAdd() {
        check(BN254CX.self)
        check(BLS12_381.self)
    }

    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let r = C.order, endomorphism = C.g1Endomorphism
        // Z != 1: the table normalises its point.
        let p = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, r, using: &random))
        let multiples = G1OddMultiples<C>(p)
        #expect(multiples.point == p && multiples.point.z == .one, "\(random.replay)")
        // The entries are (2i+1)·P and (2i+1)·2^h·P in affine coordinates, and φ of them.
        let count = G1OddMultiples<C>.count, shift = G1OddMultiples<C>.shift, tables = G1OddMultiples<C>.tables
        #expect(multiples.x.count == tables * count && shift == 32)
        for i in 0..<(tables * count) {
            let factor = BigInt(2 * (i % count) + 1) * BigInt(1).shiftedLeft(i / count * shift)
            let expected = ScalarMultiplicationTests.doubleAndAdd(p, factor)
            #expect(G1Point<C>(x: multiples.x[i], y: multiples.y[i]) == expected, "entry \(i): \(random.replay)")
        }
        // Scalars whose GLV halves end just below, at and above a multiple of h (pieces empty or
        // a single digit), besides the edge and random ones.
        let atTheSplit = (1..<tables).flatMap { t in
            [BigInt(1).shiftedLeft(t * shift) - BigInt(1), BigInt(1).shiftedLeft(t * shift), BigInt(1).shiftedLeft(t * shift + 1) + BigInt(3)]
        }
        let scalars = ScalarMultiplicationTests.scalars(C.self) + atTheSplit + (0..<24).map { _ in BigInt.random(in: .zero, r, using: &random) }
        var signs = Set<[Bool]>()
        for k in scalars {
            let (k1, k2) = endomorphism.decompose(k.mod(r))
            signs.insert([k1.isNegative, k2.isNegative])
            let expected = ScalarMultiplicationTests.doubleAndAdd(p, k.mod(r))
            #expect(multiples.multiplied(byPublic: k) == expected, "k = \(k.string(base: 16)): \(random.replay)")
            #expect(multiples.multiplied(byPublic: k) == p.multipliedInG1(byPublic: k), "k = \(k.string(base: 16))")
        }
        // Each sign of each half occurred, so the negated entries were used both ways.
        #expect(Set(signs.map { $0[0] }).count == 2 && Set(signs.map { $0[1] }).count == 2, "signs \(signs): \(random.replay)")
        let none = G1OddMultiples<C>(.infinity)
        #expect(none.point.isInfinity && none.multiplied(byPublic: BigInt(12_345)).isInfinity)
        #expect(multiples.multiplied(byPublic: .zero).isInfinity && multiples.multiplied(byPublic: r).isInfinity)
    }
}
