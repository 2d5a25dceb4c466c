import Testing
import ZKPinTestSupport

@testable import ZKPinMath

/// The GMP-free secret scalars against GMP (the oracle) on seeded random inputs and edges:
/// reduction of byte strings of any length, canonical parsing, serialisation, sum, negation,
/// and the multiplications that take them against the BigInt ones.
struct SecretScalarTests {
    static func bigInt<C: PairingCurve>(_ k: SecretScalar<C>) -> BigInt { BigInt(limbs: k.limbs) }

    static func randomBytes(_ count: Int, _ random: inout SeededRandom) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    func check<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        let r = C.order
        let n = C.scalarByteCount
        let rBytes = r.bytes(count: n)
        let edges: [[UInt8]] = [
            [], [0], [1], rBytes, r.minus(1).bytes(count: n), r.plus(1).bytes(count: n),
            [UInt8](repeating: 0xff, count: n), [UInt8](repeating: 0xff, count: 2 * n + 3)
        ]
        let randoms = (0..<150).map { i in Self.randomBytes(i % (2 * n + 8), &random) }
        for bytes in edges + randoms {
            let expected = BigInt(bytes: bytes).mod(r)
            let reduced = SecretScalar<C>(reducing: bytes)
            #expect(Self.bigInt(reduced) == expected, "\(C.name) reduce \(bytes.count) bytes; \(random.replay)")
            #expect(reduced.bytes == expected.bytes(count: n), "\(C.name) bytes; \(random.replay)")
            #expect(reduced.isZero == expected.isZero, "\(C.name) isZero; \(random.replay)")
            // Canonical: exactly the values below r.
            let canonical = SecretScalar<C>(canonical: bytes)
            let value = BigInt(bytes: bytes)
            #expect((canonical != nil) == (value < r), "\(C.name) canonical \(bytes.count) bytes; \(random.replay)")
            if let canonical { #expect(Self.bigInt(canonical) == value, "\(C.name); \(random.replay)") }
        }
        var scalars = [
            SecretScalar<C>(0), SecretScalar<C>(1), SecretScalar<C>(public: r - BigInt(1)),
            SecretScalar<C>(public: r - BigInt(2))
        ]
        scalars += (0..<40).map { _ in SecretScalar<C>.random(using: &random) }
        for a in scalars {
            let big = Self.bigInt(a)
            #expect(big < r, "\(C.name) below r; \(random.replay)")
            #expect(Self.bigInt(-a) == (r - big).mod(r), "\(C.name) negation; \(random.replay)")
            for b in scalars.prefix(6) {
                #expect(Self.bigInt(a + b) == (big + Self.bigInt(b)).mod(r), "\(C.name) sum; \(random.replay)")
            }
        }
        #expect(SecretScalar<C>.random(using: &random).isZero == false)
        // The constant-time inverse (a DVS key's z^-1) agrees with GMP's; 0 has none.
        #expect(SecretScalar<C>(0).inverse == nil, "\(C.name) inverse of 0")
        for a in scalars where !a.isZero {
            let inverse = a.inverse.map(Self.bigInt)
            #expect(inverse == Self.bigInt(a).inverse(modulus: r), "\(C.name) inverse; \(random.replay)")
            #expect(inverse.map { ($0 * Self.bigInt(a)).mod(r) } == BigInt(1), "\(C.name) z·z^-1; \(random.replay)")
        }
        // The multiplications that take a SecretScalar agree with the BigInt ones.
        let p = C.g1Generator.multiplied(byPublic: BigInt(98_765)), q = C.g2Generator
        for k in scalars.prefix(8) {
            let big = Self.bigInt(k)
            #expect(p.multiplied(bySecret: k) == p.multiplied(byPublic: big), "\(C.name) G1; \(random.replay)")
            #expect(p.multipliedInG1(bySecret: k) == p.multiplied(byPublic: big), "\(C.name) GLV; \(random.replay)")
            #expect(q.multiplied(bySecret: k) == q.multiplied(byPublic: big), "\(C.name) G2; \(random.replay)")
        }
        for pin in [0, 1, 1234, 9999, 16383] {
            #expect(p.multiplied(bySecret: SecretScalar<C>(UInt64(pin)), bitBound: 14) == p.multiplied(byPublic: BigInt(pin)))
        }
    }

    @Test func bn254cx() { check(BN254CX.self) }
    @Test func bls12_381() { check(BLS12_381.self) }
}

private extension BigInt {
    func minus(_ k: Int) -> BigInt { self - BigInt(k) }
    func plus(_ k: Int) -> BigInt { self + BigInt(k) }
}
