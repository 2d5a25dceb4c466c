import ZKPinMath
import ZKPinProtocol

/// The operations `zkpin bench` reports, on one curve.
///
/// `miller_loop` and `final_exponentiation`: the two halves of `pairing`, apart.
/// `client_login`: pass 1 and pass 2 with the identity's A cached, no time permit, fresh x and
/// y every iteration. `server_verify`: decoding U and V with full validation, y·A + U with A
/// and its odd multiples cached (as the server's identity cache keeps them), one product of two pairings with one final exponentiation, and the comparison, with
/// fresh U, V and y every iteration (a pool of genuine logins computed beforehand).
/// `server_verify_batchN`: the same work for N logins verified together (`MPin.holdingChecks`:
/// decoding and validating every U and V, one product of two pairings for the batch), reported
/// per login. `dvs_verify`: a DVS signature's verification (spec 4.1) on bytes: decoding and
/// validating Pa (subgroup check in G2), U and V, hashing ID ‖ Pa to G1 and the message into y,
/// and e(V, Pa)·e(y·A + U, SS) with Pa's lines computed on the fly (SS prepared), with fresh
/// signatures from a pool. `dvs_verify_cached`: the same as a server verifies a signer seen
/// recently: Pa's validated lines and A (with its odd multiples) found in the prepared secret's
/// caches.
public struct CurveBenchmarks<C: PairingCurve> {
    typealias Scheme = MPin<C>
    typealias Encoding = PointEncoding<C>

    public var stopwatch = Stopwatch()
    /// When set, every operation is timed in batches alternating with this reference and
    /// reported with its ratio to it.
    public var reference: ECDSABaseline?

    public init(stopwatch: Stopwatch = Stopwatch(), reference: ECDSABaseline? = nil) {
        self.stopwatch = stopwatch
        self.reference = reference
    }

    public static var operations: [String] {
        [
            "fp_mul", "fp_inverse", "fp_inverse_ct", "scalar_inverse", "g1_affine_ct", "g1_mul", "g1_mul_glv", "g2_mul", "gt_pow", "map_to_g1",
            "pairing", "miller_loop", "final_exponentiation",
            "multi_pairing2", "pairing_prepared", "client_login", "server_verify",
            "server_verify_batch8", "server_verify_batch64", "server_verify_batch256", "dvs_verify",
            "dvs_verify_cached"
        ]
    }

    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public func run(only: Set<String>? = nil, progress: (String) -> Void = { _ in }) -> [BenchmarkResult] {
        var results = [BenchmarkResult]()
        /// `perCall`: how many operations one call of `body` does (the result is per operation).
        func measure(_ op: String, perCall: Int = 1, _ body: () -> Void) {
            guard only?.contains(op) ?? true else { return }
            progress(op)
            let n = Double(perCall)
            if let reference {
                let (median, ratio) = stopwatch.medianAndRatio(body, reference: { reference.verify() })
                results.append(
                    BenchmarkResult(
                        curve: C.name, op: op, medianNanoseconds: median / n,
                        ratioToReference: reference.allValid ? ratio / n : nil))
            } else {
                results.append(BenchmarkResult(curve: C.name, op: op, medianNanoseconds: stopwatch.median(body) / n))
            }
        }
        let p = C.g1Generator, q = C.g2Generator
        blackHole(C.frobeniusEndomorphism)  // its one-time set-up (checking the basis) outside the timings
        let scalar = BigInt.random(in: .one, C.order), secretScalar = SecretScalar<C>(public: scalar)

        var element = Fp<C.Field>(BigInt.random(in: .one, C.Field.modulusBig))
        let factor = Fp<C.Field>(BigInt.random(in: .one, C.Field.modulusBig))
        measure("fp_mul") { element = element * factor }
        // Blinded (a random factor per call), as every inversion of the library is.
        measure("fp_inverse") { element = element.inverse + factor }
        // The GMP-free ones a device without GMP uses (Fermat: constant time, slower).
        measure("fp_inverse_ct") { element = element.constantTimeInverse + factor }
        blackHole(element)
        measure("scalar_inverse") { blackHole(secretScalar.inverse) }
        let secretPoint = p.multipliedInG1(bySecret: secretScalar)
        measure("g1_affine_ct") { blackHole(secretPoint.constantTimeAffine) }

        measure("g1_mul") { blackHole(p.multiplied(bySecret: secretScalar)) }
        measure("g1_mul_glv") { blackHole(p.multipliedInG1(bySecret: secretScalar)) }
        measure("g2_mul") { blackHole(q.multiplied(bySecret: secretScalar)) }
        let gt = Pairing<C>.pairing(p, q)
        measure("gt_pow") { blackHole(Pairing<C>.gtPower(gt, bySecret: secretScalar)) }
        var counter: UInt32 = 0
        measure("map_to_g1") {
            counter &+= 1
            blackHole(MPinHash<C>.hashToG1(id: withUnsafeBytes(of: counter) { Array($0) }))
        }
        measure("pairing") { blackHole(Pairing<C>.pairing(p, q)) }
        // The pairing's two halves apart (mcl times its millerLoop and finalExp apart too).
        measure("miller_loop") { blackHole(MillerLoop<C>.evaluate(p, q)) }
        let unreduced = MillerLoop<C>.evaluate(p, q)
        measure("final_exponentiation") { blackHole(Pairing<C>.finalExponentiation(unreduced)) }
        let p2 = p.multiplied(byPublic: scalar), q2 = q.multiplied(byPublic: scalar)
        measure("multi_pairing2") { blackHole(Pairing<C>.product(p, q, p2, q2)) }
        let preparedQ = G2Prepared<C>(q2)
        measure("pairing_prepared") { blackHole(Pairing<C>.pairing(p, preparedQ)) }

        // One registered identity.
        let id = Array(#"{"userID": "bench@example.com"}"#.utf8)
        let a = MPinHash<C>.hashToG1(id: id)
        let master = Scheme.randomScalar()
        let serverSecret = Scheme.serverSecretShare(master: master)
        let pin = 1234
        let token = Scheme.extractPIN(
            clientSecret: Scheme.clientSecretShare(master: master, hashedIDPoint: a),
            pin: pin, hashedIDPoint: a)

        measure("client_login") {
            let x = Scheme.randomScalar(), y = Scheme.randomScalar()
            let pass1 = Scheme.clientPass1(x: x, token: token, pin: pin, hashedIDPoint: a)
            let u = Encoding.encode(pass1.u)
            let v = Encoding.encode(Scheme.clientPass2(x: x, y: y, sec: pass1.sec))
            blackHole((u, v))
        }

        let batchSizes = [8, 64, 256]
        let verifyOps = ["server_verify"] + batchSizes.map { "server_verify_batch\($0)" }
        if only.map({ !$0.isDisjoint(with: verifyOps) }) ?? true {
            let batched = verifyOps.dropFirst().contains { only?.contains($0) ?? true }
            let poolSize = batched ? batchSizes.max()! : 32
            let logins: [(u: [UInt8], v: [UInt8], y: BigInt)] = (0..<poolSize).map { _ in
                let x = Scheme.randomScalar(), y = Scheme.randomScalar()
                let pass1 = Scheme.clientPass1(x: x, token: token, pin: pin, hashedIDPoint: a)
                return (Encoding.encode(pass1.u), Encoding.encode(Scheme.clientPass2(x: x, y: y, sec: pass1.sec)), BigInt(bytes: y.bytes))
            }
            // The relying party prepares SS's lines once at start-up, not per login, and keeps
            // each identity's HID with Z = 1 and its odd multiples (its identity cache).
            let preparedSecret = G2Prepared<C>(serverSecret)
            let hidMultiples = G1OddMultiples<C>(a), hid = hidMultiples.point
            var next = 0
            var accepted = true
            measure("server_verify") {
                let login = logins[next]
                next = (next + 1) % logins.count
                guard let u = try? Encoding.decodeG1(login.u), let v = try? Encoding.decodeG1(login.v) else {
                    accepted = false
                    return
                }
                accepted =
                    accepted && Scheme.verify(multiplesOf: hidMultiples, y: login.y, u: u, v: v, serverSecret: preparedSecret).accepted
            }
            for size in batchSizes {
                measure("server_verify_batch\(size)", perCall: size) {
                    var checks: [Scheme.LoginCheck] = []
                    checks.reserveCapacity(size)
                    for login in logins.prefix(size) {
                        guard let u = try? Encoding.decodeG1(login.u), let v = try? Encoding.decodeG1(login.v) else {
                            accepted = false
                            return
                        }
                        checks.append(Scheme.LoginCheck(hid: hid, u: u, v: v, y: login.y))
                    }
                    accepted = accepted && Scheme.holdingChecks(checks, serverSecret: preparedSecret).allSatisfy { $0 }
                }
            }
            precondition(accepted, "benchmark logins must verify")
        }
        if only.map({ $0.contains("dvs_verify") || $0.contains("dvs_verify_cached") }) ?? true {
            dvsVerify(measure: measure, only: only)
        }
        return results
    }
}
