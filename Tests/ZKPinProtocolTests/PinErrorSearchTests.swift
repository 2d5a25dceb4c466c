import Testing
import ZKPinMath
import ZKPinTestSupport

@testable import ZKPinProtocol

/// The server's PIN-error search does the same work whatever the PIN error: its step count
/// cannot tell an observer anything about the registered PIN, and it still finds the error.
struct PinErrorSearchTests {
    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        // F as the server computes it, e(something, Q): a random element of GT.
        let f = Pairing<C>.pairing(
            C.g1Generator.multiplied(byPublic: BigInt.random(in: .one, C.order, using: &random)),
            C.g2GeneratorPrepared)
        let errors = [0, 1, -1, 42, -4321, 9999, -9999, 5000 + Int(random.next() % 4999), -Int(random.next() % 9999)]
        var counts = Set<Int>()
        for error in errors {
            // E = F^(-e) (GT is unitary: the inverse is the conjugate).
            let fe = f.power(BigInt(abs(error)))
            let e = error > 0 ? fe.conjugate : fe
            let search = MPin<C>.pinErrorSearch(e: e, f: f)
            #expect(search.error == error, "\(C.name): PIN error \(error), found \(search.error); \(random.replay)")
            counts.insert(search.giantSteps)
        }
        // Not a genuine token: no error found, and still the same work.
        let unrelated = Pairing<C>.pairing(C.g1Generator, C.g2GeneratorPrepared)
        let none = MPin<C>.pinErrorSearch(e: unrelated.power(BigInt(123_456)), f: f)
        #expect(none.error == 0, "\(C.name): \(random.replay)")
        counts.insert(none.giantSteps)
        #expect(counts == [200], "\(C.name): giant steps per search \(counts.sorted()); \(random.replay)")
    }

    @Test func bn254cxSearchTakesTheSameStepsForEveryError() { check(BN254CX.self) }
    @Test func bls12_381SearchTakesTheSameStepsForEveryError() { check(BLS12_381.self) }
}
