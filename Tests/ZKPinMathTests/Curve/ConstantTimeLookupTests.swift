import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// The masked table read (word by word for eight plain-word entries, by `select` for other
/// tables) returns exactly the entry asked for, and the branch-free conditional negation and
/// conjugation equal the plain ones.
struct ConstantTimeLookupTests {
    func checkEntries<T: Equatable>(_ table: [T], select: (UInt64, T, T) -> T, _ label: String) {
        for index in table.indices {
            #expect(constantTimeEntry(table, at: UInt64(index), select: select) == table[index], "\(label) entry \(index)")
        }
    }

    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        func scalar() -> BigInt { BigInt.random(in: .one, C.order, using: &random) }
        // Seventeen G1 points (through select), eight G2 points and eight GT elements (word by word).
        let g1 = (0..<17).map { _ in C.g1Generator.multiplied(byPublic: scalar()) }
        checkEntries(g1, select: G1Point<C>.select, "\(C.name) G1")
        let g2 = (0..<8).map { _ in C.g2Generator.multiplied(byPublic: scalar()) }
        checkEntries(g2, select: G2Point<C>.select, "\(C.name) G2")
        let gt = (0..<8).map { _ in PairingDefinitionsTests.randomFp12(C.self, using: &random) }
        checkEntries(gt, select: Fp12.select, "\(C.name) GT")
        for (p, x) in zip(g2, gt) {
            #expect(p.negated(if: .max) == -p && p.negated(if: 0) == p, "\(random.replay)")
            let (negated, kept) = (p.negated(if: .max), p.negated(if: 0))
            #expect(negated.x == (-p).x && negated.y == (-p).y && kept.y == p.y, "\(random.replay)")
            #expect(x.conjugated(if: .max) == x.conjugate && x.conjugated(if: 0) == x, "\(random.replay)")
        }
    }

    @Test func entriesAndConditionalInverses() {
        check(BN254CX.self)
        check(BLS12_381.self)
        // A type that is not plain words (BigInt holds a reference) goes through select.
        let big = (0..<5).map { BigInt($0 * 1_000_003 + 7) }
        checkEntries(big, select: { mask, a, b in mask == 0 ? b : a }, "BigInt")
    }
}
