import Testing
import ZKPinMathGMP
import ZKPinTestSupport

@testable import ZKPinMath

/// The batched verification's r·y mod the order on fixed limbs against GMP, on seeded random
/// challenges and the edges (0, 1, the order minus one; r 1 and 2^64 - 1; a challenge at or
/// above the order, which takes the BigInt way).
struct OrderProductsTests {
    @Test func againstGMP() {
        check(BN254CX.self)
        check(BLS12_381.self)
    }

    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let products = OrderProducts<C>()
        let order = C.order
        let edges: [BigInt] = [.zero, .one, order - .one, order, order + .one, BigInt(UInt64.max), order.shiftedLeft(1)]
        let challenges = edges + (0..<300).map { _ in BigInt.random(in: .zero, order, using: &random) }
        for y in challenges {
            for r in [1, UInt64.max, random.next() | 1] {
                let expected = (GMPInteger(r) * GMPInteger(y)).mod(GMPInteger(order)).limbs(count: SecretGLV<C>.width)
                #expect(products.product(y, r) == expected, "\(C.name) r \(r) y \(y); \(random.replay)")
            }
        }
    }
}
