import ZKPinMath
import ZKPinProtocol

extension CurveBenchmarks {
    /// `dvs_verify` and `dvs_verify_cached` (see the type's comment): one identity with its
    /// device key, a pool of 16 signatures on distinct messages, verified in turn through the
    /// byte-level suite, as a server would with what a client sends.
    func dvsVerify(measure: (String, Int, () -> Void) -> Void, only: Set<String>?) {
        let suite = MPinCurveSuite<C>()
        let id = Array(#"{"userID": "bench-dvs@example.com"}"#.utf8)
        let keys = suite.dvsKeyPair()
        let master = suite.randomScalar()
        let pin = 4321
        guard let identity = try? suite.dvsIdentity(id: id, publicKey: keys.publicKey),
            let serverSecret = try? suite.prepareServerSecret(suite.serverSecretShare(master: master)),
            let blinded = try? suite.dvsBlind(suite.clientSecretShare(master: master, id: identity), z: keys.z, field: "CS"),
            let token = try? suite.extractPIN(clientSecret: blinded, id: identity, pin: pin)
        else { preconditionFailure("benchmark DVS set-up must succeed") }
        let signatures: [(message: [UInt8], signature: DVSSignatureBytes)] = (0..<16).map { index in
            let message = Digest.sha256(Array("approve \(index)".utf8))
            guard
                let signature = try? suite.dvsSign(
                    identity: identity, token: token, pin: pin, message: message, time: 1_795_000_000 + index,
                    timePermit: nil, date: 0)
            else { preconditionFailure("benchmark DVS signing must succeed") }
            return (message, signature)
        }
        var next = 0, accepted = true
        for (name, caching) in [("dvs_verify", false), ("dvs_verify_cached", true)] where only?.contains(name) ?? true {
            measure(name, 1) {
                let item = signatures[next]
                next = (next + 1) % signatures.count
                accepted =
                    accepted
                    && suite.dvsVerify(
                        id: id, publicKey: keys.publicKey, date: 0, serverSecret: serverSecret, message: item.message,
                        signature: item.signature, signer: .blindedToken, cachingPublicKey: caching
                    ).accepted
            }
        }
        precondition(accepted, "benchmark DVS signatures must verify")
    }
}
