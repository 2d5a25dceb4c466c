import Testing
@testable import ZKPinMath

/// The BLS12 hard part raised to 3λ is exactly the cube of the exact hard part.
struct HardPartCubedTests {
    @Test func cubeOfTheExactValue() {
        for _ in 0..<5 {
            let x = FastPairingTests.randomCyclotomic(BLS12_381.self)
            let exact = Pairing<BLS12_381>.bls12HardPart(x)
            #expect(Pairing<BLS12_381>.bls12HardPartCubed(x) == exact.cyclotomicSquared * exact)
        }
    }
}
