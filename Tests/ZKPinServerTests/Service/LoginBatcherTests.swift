import Foundation
import Synchronization
import Testing
import ZKPinProtocol

@testable import ZKPinServer

/// The verifier waits for a batch to fill only under load: never after a batch of one (a lone
/// login is verified at once, however long the wait may be), never when full or switched off.
@Suite(.timeLimit(.minutes(1))) struct LoginBatcherTests {
    @Test func waitsOnlyAfterABatchOfSeveralAndWhileNotFull() {
        #expect(!LoginBatcher.waitsForMore(lastBatch: 0, pending: 1, maxBatch: 64, maxWait: 0.002))
        #expect(!LoginBatcher.waitsForMore(lastBatch: 1, pending: 1, maxBatch: 64, maxWait: 0.002))
        #expect(LoginBatcher.waitsForMore(lastBatch: 2, pending: 1, maxBatch: 64, maxWait: 0.002))
        #expect(LoginBatcher.waitsForMore(lastBatch: 64, pending: 63, maxBatch: 64, maxWait: 0.002))
        #expect(!LoginBatcher.waitsForMore(lastBatch: 64, pending: 64, maxBatch: 64, maxWait: 0.002))
        #expect(!LoginBatcher.waitsForMore(lastBatch: 64, pending: 1, maxBatch: 64, maxWait: 0))
    }

    /// With a wait of two minutes and a time limit of one, the test ends only if neither lone
    /// login waited: each is its own batch, and its bad V gets the decoding verdict.
    @Test func loneLoginsAreVerifiedAtOnce() async throws {
        let suite = CurveID.bn254cx.suite
        let secret = try suite.prepareServerSecret(try suite.serverSecretShare(master: suite.randomScalar()))
        let sizes = Mutex<[Int]>([])
        let batcher = LoginBatcher(suite: suite, serverSecret: secret, maxBatch: 64, maxWait: 120) { size in
            sizes.withLock { $0.append(size) }
        }
        let login = ServerVerifyInput(id: Array("lone".utf8), date: 0, u: [4], ut: nil, v: [4], y: suite.randomScalar())
        for _ in 0..<2 {
            let verdict = await batcher.verify(login)
            #expect(!verdict.accepted)
        }
        #expect(sizes.withLock { $0 } == [1, 1])
    }
}
