import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Issue 25: a client that sends its DVS public key Pa at registration gets the identity
/// ID' = ID ‖ Pa. Both authorities issue shares for ID', the login is M-Pin's as before (the
/// fixed-Q batch included), and the same client secret, blinded by z, signs messages that the
/// server verifies against Pa (mpin-crypto.md 4.1). A client without Pa registers as today.
@Suite struct SigningIdentityTests {
    @Test(arguments: [CurveID.bn254cx, .bls12_381]) func aSigningCapableIdentitySignsInAndSigns(curve: CurveID) async throws {
        let h = try await Harness.make(curve: curve)
        let suite = curve.suite
        let key = suite.dvsKeyPair()
        try await h.run { t in
            let user = try await TestUser.register(
                t, email: "alice@example.com", pin: 1234, outbox: h.outbox, curve: curve, dvsPublicKey: key.publicKey)
            let id = try #require(Hex.decode(user.mpinId))
            #expect(Array(id.suffix(key.publicKey.count)) == key.publicKey, "the mpinId is hex(ID ‖ Pa)")
            let parts = try #require(MPinIdentity.parts(of: user.mpinId, publicKeyBytes: suite.g2ByteCount))
            #expect(parts.identity.userID == "alice@example.com" && parts.publicKey == key.publicKey)
            // The login is the plain M-Pin login on ID'.
            #expect(try await user.login(t).status == 200)

            // Signing: the client secret blinded by z, the PIN taken out.
            let signingToken = try suite.extractPIN(clientSecret: try suite.dvsBlind(user.clientSecret, z: key.z, field: "CS"), id: id, pin: 1234)
            let message = Array("Pay 100 EUR to Bob".utf8)
            let time = h.clock.now
            let plainID = Array(id.dropLast(key.publicKey.count))
            let verifier = h.rp.login.verifier
            func verify(_ signature: DVSSignatureBytes, message: [UInt8] = message, publicKey: [UInt8] = key.publicKey) -> ServerVerification {
                verifier.suite.dvsVerify(
                    id: plainID, publicKey: publicKey, date: 0, serverSecret: verifier.serverSecret, message: message, signature: signature)
            }
            let good = try suite.dvsSign(identity: id, token: signingToken, pin: 1234, message: message, time: time, timePermit: nil, date: 0)
            #expect(verify(good).result == .accepted)
            #expect(verify(good, message: Array("Pay 900 EUR to Bob".utf8)).result != .accepted)
            #expect(verify(good, publicKey: suite.dvsKeyPair().publicKey).result != .accepted)
            let wrongPIN = try suite.dvsSign(identity: id, token: signingToken, pin: 1240, message: message, time: time, timePermit: nil, date: 0)
            let refused = verify(wrongPIN)
            #expect(refused.result != .accepted && refused.pinError == 6, "\(refused)")
            // zkpin keeps its login token and z instead of the blinded token (docs/api.md): the
            // same signature bytes, and a wrong PIN is found against the login's base.
            let rebuilt = try suite.extractPIN(
                clientSecret: try suite.dvsBlind(try suite.changePIN(token: user.token, id: id, oldPIN: 1240, newPIN: 0), z: key.z, field: "CS"),
                id: id, pin: 1240)
            let keptToken = try suite.dvsSign(identity: id, token: rebuilt, pin: 1240, message: message, time: time, timePermit: nil, date: 0)
            let found = verifier.suite.dvsVerify(
                id: plainID, publicKey: key.publicKey, date: 0, serverSecret: verifier.serverSecret, message: message, signature: keptToken,
                signer: .loginTokenAndKey)
            #expect(found.result != .accepted && found.pinError == 6, "\(found)")
            // ...and against the spec's base it is not found, which is why the signer is named.
            #expect(verify(keptToken).pinError == 0)
            // The login token does not sign: the signature needs z.
            let unblinded = try suite.dvsSign(identity: id, token: user.token, pin: 1234, message: message, time: time, timePermit: nil, date: 0)
            #expect(verify(unblinded).result != .accepted)
        }
    }

    @Test func aKeyThatIsNotAPointIsRefusedAndNoKeyRegistersAsBefore() async throws {
        let h = try await Harness.make()
        let suite = CurveID.bn254cx.suite
        try await h.run { t in
            for bad in [
                "zz", String(repeating: "00", count: suite.g2ByteCount), String(repeating: "01", count: suite.g2ByteCount),
                Hex.encode(suite.dvsKeyPair().publicKey) + "00"
            ] {
                let reply = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "bob@example.com", pa: bad))
                #expect(reply.status == 400 && reply.error?.message.contains("pa") == true, "\(bad.prefix(8)): \(reply.status) \(reply.text)")
            }
            #expect(try await h.rp.store.expiringRowCounts()["registrations"] == 0)
            let plain = try await TestUser.register(t, email: "bob@example.com", pin: 77, outbox: h.outbox)
            #expect(MPinIdentity(mpinId: plain.mpinId)?.userID == "bob@example.com")
            #expect(try await plain.login(t).status == 200)
        }
    }
}
