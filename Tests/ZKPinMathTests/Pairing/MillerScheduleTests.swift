import Testing
import ZKPinMath
import ZKPinTestSupport

/// The one Miller schedule: it spells the loop count, the prepared lines follow it, and the
/// loop over any number of pairs equals the product of single pairings.
struct MillerScheduleTests {
    func checkSchedule<C: PairingCurve>(_: C.Type) {
        let steps = C.millerSchedule
        #expect(steps.first == .doubling, "the first step is the peeled doubling")
        // Doublings and additions spell the loop count from its leading 1.
        var count = BigInt.one
        for step in steps {
            switch step {
            case .doubling: count = count * BigInt(2)
            case .addition: count = count + .one
            case .negatedAddition: count = count - .one
            case .conjugation, .frobenius: break
            }
        }
        #expect(count == C.ateLoopCount)
        #expect(steps.filter { $0 == .conjugation }.count == (C.uIsNegative ? 1 : 0))
        #expect(steps.filter { $0 == .frobenius }.count == (C.family == .bn ? 1 : 0))
        if C.family == .bn { #expect(steps.last == .frobenius) }
        // A prepared point records one line per line of the schedule, tagged with its step.
        let expected = steps.flatMap { step -> [MillerStep] in
            switch step {
            case .conjugation: return []
            case .frobenius: return [.frobenius, .frobenius]
            default: return [step]
            }
        }
        let prepared = G2Prepared(C.g2Generator.multiplied(byPublic: BigInt(12345)))
        #expect(prepared.steps == expected)
        #expect(prepared.lines.count == expected.count)
    }

    @Test func scheduleBN() { checkSchedule(BN254CX.self) }
    @Test func scheduleBLS() { checkSchedule(BLS12_381.self) }

    /// The n-pair loop (live and prepared lines) against products of single pairings.
    func checkPairs<C: PairingCurve>(_: C.Type) {
        var random = SeededRandom()
        func scalar() -> BigInt { BigInt.random(in: .one, C.order, using: &random) }
        for count in [0, 1, 2, 3, 5] {
            let pairs = (0..<count).map { _ in
                (C.g1Generator.multiplied(byPublic: scalar()), C.g2Generator.multiplied(byPublic: scalar()))
            }
            var expected = Fp12<C.Field>.one
            for (p, q) in pairs { expected = expected * Pairing<C>.pairing(p, q) }
            #expect(Pairing<C>.finalExponentiation(MillerLoop<C>.evaluate(pairs)) == expected, "\(count) pairs, \(random.replay)")
            let prepared = pairs.map { ($0.0, G2Prepared($0.1)) }
            #expect(
                Pairing<C>.finalExponentiation(MillerLoop<C>.evaluate(prepared)) == expected,
                "\(count) prepared pairs, \(random.replay)")
        }
        // A pair with a point at infinity contributes 1.
        let p = C.g1Generator.multiplied(byPublic: scalar()), q = C.g2Generator
        #expect(
            Pairing<C>.finalExponentiation(MillerLoop<C>.evaluate([(p, q), (.infinity, q), (p, .infinity)]))
                == Pairing<C>.pairing(p, q), "\(random.replay)")
    }

    @Test func pairsBN() { checkPairs(BN254CX.self) }
    @Test func pairsBLS() { checkPairs(BLS12_381.self) }
}
