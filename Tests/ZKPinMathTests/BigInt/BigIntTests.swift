import Testing
import ZKPinMathGMP
import ZKPinTestSupport

@testable import ZKPinMath

/// The pure-Swift BigInt against GMP (GMPInteger) on seeded random values of 0 to 12 limbs,
/// both signs, and the edges (0, ±1, limb boundaries, the curves' p and r): every operation the
/// package uses, floor division and the non-negative residue included.
struct BigIntTests {
    static func randomValue(_ random: inout SeededRandom) -> BigInt {
        let limbs = Int.random(in: 0...12, using: &random)
        var words = (0..<limbs).map { _ in random.next() }
        // Sparse and extreme limbs as well as uniform ones (carries and borrows across limbs).
        for i in words.indices where random.next() % 4 == 0 { words[i] = random.next() % 3 == 0 ? 0 : .max }
        let value = BigInt(limbs: words)
        return random.next() % 2 == 0 ? value : -value
    }

    static let edges: [BigInt] = {
        var values: [BigInt] = [.zero, .one, BigInt(-1), BigInt(2), BigInt(UInt64.max), BigInt(Int.min), BigInt(Int.max)]
        values += [BigInt.one.shiftedLeft(64), BigInt.one.shiftedLeft(128) - .one, BigInt.one.shiftedLeft(191)]
        values += [BN254CXField.modulusBig, BLS12_381Field.modulusBig, BN254CX.order, BLS12_381.order]
        return values + values.map { -$0 }
    }()

    @Test func againstGMP() {
        var random = SeededRandom()
        let values = Self.edges + (0..<300).map { _ in Self.randomValue(&random) }
        for (index, a) in values.enumerated() {
            let ga = GMPInteger(a)
            #expect(ga.bigInt == a, "round trip through hex; \(random.replay)")
            #expect(a.description == ga.description, "decimal \(a); \(random.replay)")
            #expect(a.string(base: 16) == ga.string(base: 16), "hex; \(random.replay)")
            #expect(BigInt(decimal: a.description) == a && BigInt(hex: a.string(base: 16)) == a, "parsing; \(random.replay)")
            #expect(a.bitWidth == ga.bitWidth && a.signum == ga.signum && a.isOdd == ga.isOdd, "inspection; \(random.replay)")
            #expect(a.intValue == ga.intValue, "intValue \(a); \(random.replay)")
            #expect(a.bytes == ga.bytes, "bytes; \(random.replay)")
            #expect(BigInt(bytes: a.bytes) == a.magnitude, "from bytes; \(random.replay)")
            for bit in [0, 1, 63, 64, 65, 200] { #expect(a.bit(bit) == ga.magnitude.bit(bit), "bit \(bit) of |a|; \(random.replay)") }
            for shift in [0, 1, 63, 64, 65, 130] {
                #expect(a.shiftedRight(shift) == ga.shiftedRight(shift).bigInt, "\(a) >> \(shift); \(random.replay)")
                #expect(a.shiftedLeft(shift) == ga.shiftedLeft(shift).bigInt, "<< \(shift); \(random.replay)")
            }
            for exponent in [0, 1, 2, 5] { #expect(a.power(exponent) == ga.power(exponent).bigInt, "^\(exponent); \(random.replay)") }
            // Against a handful of partners each (a pairwise square would be 100k checks).
            let partners = Self.edges.prefix(4) + (0..<6).map { values[($0 * 37 + index * 11) % values.count] }
            for b in partners {
                let gb = GMPInteger(b)
                #expect((a + b) == (ga + gb).bigInt, "\(a) + \(b); \(random.replay)")
                #expect((a - b) == (ga - gb).bigInt, "\(a) - \(b); \(random.replay)")
                #expect((a * b) == (ga * gb).bigInt, "\(a) * \(b); \(random.replay)")
                #expect((a < b) == (ga < gb) && (a == b) == (ga == gb), "compare; \(random.replay)")
                guard !b.isZero else { continue }
                #expect((a / b) == (ga / gb).bigInt, "\(a) / \(b); \(random.replay)")
                let m = b.magnitude, gm = gb.magnitude
                #expect(a.mod(m) == ga.mod(gm).bigInt, "\(a) mod \(m); \(random.replay)")
                if m != .one {
                    #expect(a.inverse(modulus: m) == ga.inverse(modulus: gm).map(\.bigInt), "\(a)^-1 mod \(m); \(random.replay)")
                }
                if m.bitWidth <= 512 {
                    let e = a.magnitude.shiftedRight(max(0, a.bitWidth - 300))
                    #expect(b.power(e, modulus: m) == gb.power(GMPInteger(e), modulus: gm).bigInt, "power mod; \(random.replay)")
                }
            }
        }
        // Legendre symbols modulo the field primes.
        for p in [BN254CXField.modulusBig, BLS12_381Field.modulusBig] {
            for _ in 0..<40 {
                let a = BigInt.random(in: .zero, p, using: &random)
                #expect(a.isQuadraticResidue(modulo: p) == GMPInteger(a).isQuadraticResidue(modulo: GMPInteger(p)), "\(random.replay)")
            }
        }
    }

    /// Knuth's division at its corners: quotient digits of 2^64 - 1, the add-back step (rare on
    /// random input), divisors with their top bit set and unset.
    @Test func divisionCorners() {
        var random = SeededRandom()
        for _ in 0..<400 {
            let n = Int.random(in: 2...6, using: &random)
            var divisor = (0..<n).map { _ in random.next() }
            if random.next() % 2 == 0 { divisor[n - 1] |= 1 << 63 } else { divisor[n - 1] >>= random.next() % 63 }
            if random.next() % 3 == 0 { divisor[n - 2] = .max }
            let b = BigInt(limbs: divisor)
            guard !b.isZero else { continue }
            // a = b·q + r with q's limbs near 2^64 - 1 and r just below b.
            let q = BigInt(limbs: (0..<Int.random(in: 1...4, using: &random)).map { _ in random.next() % 2 == 0 ? UInt64.max : random.next() })
            let r = b - BigInt(Int.random(in: 1...3, using: &random))
            let a = b * q + (r.isNegative ? .zero : r)
            let ga = GMPInteger(a), gb = GMPInteger(b)
            #expect(a / b == (ga / gb).bigInt, "\(a) / \(b); \(random.replay)")
            #expect(a.mod(b) == ga.mod(gb).bigInt, "\(a) mod \(b); \(random.replay)")
        }
    }
}
