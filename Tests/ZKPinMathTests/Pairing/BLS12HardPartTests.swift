import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// The BLS12 hard part raised to 3λ is exactly the cube of the exact hard part.
struct BLS12HardPartTests {
    @Test func bls12HardPartCubedIsTheCubeOfTheExactValue() {
        var random = SeededRandom()
        for _ in 0..<5 {
            let x = PairingDefinitionsTests.randomCyclotomic(BLS12_381.self, using: &random)
            let exact = Pairing<BLS12_381>.bls12HardPart(x)
            #expect(Pairing<BLS12_381>.bls12HardPartCubed(x) == exact.cyclotomicSquared * exact, "\(random.replay)")
        }
    }
}
