import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The body timer covers the body only: a login whose page never takes it up waits the
/// take-up time (longer than the body timeout here) and answers 408 `authentication_timeout`
/// ("the PIN was right, but the page did not take the login up"), not a closed connection.
@Suite struct BodyDeadlineTests {
    @Test func aHandlerSlowerThanTheBodyTimeoutStillAnswers() async throws {
        let live = try await LiveServer.start { o in o.bodyTimeout = 1 }
        defer { live.stop() }
        let t = live.transport
        let user = try await TestUser.register(t, email: "slow@example.com", pin: 2468, outbox: live.harness.outbox)
        let page = try await t.json("POST", "/rps/getAccessNumber", [String: String]()).json(AccessNumberResponse.self)
        let pass2 = try await user.pass12(t, wid: page.accessNumber)
        #expect(pass2.status == 200, "\(pass2.text)")
        // The page is never opened: /rps/authenticate waits for it, then says so.
        let answer = try await t.json(
            "POST", "/rps/authenticate", AuthenticateRequest(authOTT: try pass2.json(Pass2Response.self).authOTT))
        #expect(answer.status == 408 && answer.error?.error == "authentication_timeout", "\(answer.status) \(answer.text)")
    }
}
