import Foundation
import ZKPinProtocol
import ZKPinWire

/// The pairing side of a login: point validation at pass 1, the challenge y, and the verdict
/// of pass 2 through the batch verifier (with the previous day's permit during the first hour
/// of a UTC day).
struct LoginVerifier: Sendable {
    let suite: any MPinSuite
    let serverSecret: PreparedServerSecret
    let batcher: LoginBatcher

    /// Full validation of U and UT (on the curve, in G1) before they are stored; the points are
    /// kept for pass 2 (`LoginPointCache`).
    func validate(u: [UInt8], ut: [UInt8]?) throws(APIError) {
        do { try suite.validateLoginPoints(u: u, ut: ut, for: serverSecret) } catch { throw APIError.bad("\(error)") }
    }

    func randomChallenge() -> [UInt8] { suite.randomScalar() }

    func verify(_ c: Challenge, v: [UInt8]) async -> ServerVerification {
        let id = Hex.decode(c.mpinId) ?? []
        let first = await batcher.verify(ServerVerifyInput(id: id, date: c.date, u: c.u, ut: c.ut, v: v, y: c.y))
        guard !first.accepted, c.date > 1, c.created - c.date * 86_400 < 3600 else { return first }
        let (suite, serverSecret) = (suite, serverSecret)
        let previous = await batcher.perform {
            suite.serverVerify(id: id, date: c.date - 1, serverSecret: serverSecret, u: c.u, ut: c.ut, v: v, y: c.y)
        }
        return previous.accepted || previous.pinError != 0 ? previous : first
    }
}
