import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// The BN hard part of the server's "is it 1" test (Fuentes-Castañeda et al.) is exactly the
/// exact hard part raised to m = 2u(6u^2 + 3u + 1).
struct BNHardPartTests {
    @Test func bnHardPartMultipleIsTheExactValueToTheM() {
        var random = SeededRandom()
        let u = BN254CX.u
        let m = BigInt(2) * u * (BigInt(6) * u * u + BigInt(3) * u + BigInt(1))
        for _ in 0..<3 {
            let x = PairingDefinitionsTests.randomCyclotomic(BN254CX.self, using: &random)
            let exact = Pairing<BN254CX>.bnHardPart(x)
            #expect(!exact.isOne, "\(random.replay)")
            #expect(Pairing<BN254CX>.bnHardPartMultiple(x) == exact.cyclotomicPower(m), "\(random.replay)")
        }
    }
}
