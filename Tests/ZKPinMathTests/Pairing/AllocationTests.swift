import CAllocationCounter
import Testing
import ZKPinMath
import ZKPinTestSupport

/// Issue 3: no heap allocation inside a pairing (counted by the malloc wrappers of
/// CAllocationCounter on this thread only).
struct AllocationTests {
    /// Allocations made by `body` on this thread.
    func allocations(_ body: () -> Void) -> Int {
        zkpin_allocation_counter_start()
        body()
        return zkpin_allocation_counter_stop()
    }

    @Test func theCounterSeesAnAllocation() {
        var kept: [Int] = []
        let count = allocations { kept = Array(repeating: 7, count: 100 + kept.count) }
        #expect(count >= 1)
        #expect(kept.count >= 100)
    }

    func checkPairings<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let p1 = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        let p2 = C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        let q = C.g2Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random))
        let prepared = G2Prepared(q)
        // The first calls initialise the curve's constants (loop schedule, prepared generator)
        // and the runtime's type metadata of the generic pair types, once per process.
        var results = [
            Pairing<C>.pairing(p1, q), Pairing<C>.product(p1, prepared, p2, C.g2GeneratorPrepared),
            Pairing<C>.product(p1, q, p2, C.g2Generator)
        ]
        results.reserveCapacity(10)
        var one = Fp12<C.Field>.one, two = one, three = one
        #expect(allocations { one = Pairing<C>.pairing(p1, q) } == 0, "one pairing \(random.replay)")
        #expect(allocations { two = Pairing<C>.product(p1, q, p2, C.g2Generator) } == 0, "product of two \(random.replay)")
        #expect(
            allocations { three = Pairing<C>.product(p1, prepared, p2, C.g2GeneratorPrepared) } == 0,
            "product of two with prepared lines (the server's verification)")
        // The results are real pairings, not values optimised away.
        #expect(one == results[0] && !one.isOne, "\(random.replay)")
        #expect(three == results[1] && two == three, "\(random.replay)")
    }

    @Test func bn254cxPairingsDoNotAllocate() { checkPairings(BN254CX.self) }
    @Test func bls12381PairingsDoNotAllocate() { checkPairings(BLS12_381.self) }
}
