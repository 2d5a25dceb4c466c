import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The activation page speaks to whichever client asked: the web app as much as the zkpin
/// command (the page cannot tell them apart, and a person who registered in the app has no
/// "zkpin client").
@Suite struct ActivationPageWordsTests {
    @Test func theActivationPageNamesTheAppAndTheCommand() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let reg = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "app@example.com", deviceName: "phone"))
                .json(RegisterResponse.self)
            let link = try Outbox.activationLink(in: h.outbox, to: "app@example.com")
            let path = String(link[link.range(of: "/mpinActivate")!.lowerBound...])
            let ask = try await t.get(path).text
            #expect(ask.contains("the ZKPin app in your browser or on your phone, or the zkpin command"), "\(ask)")
            #expect(!ask.contains("zkpin client"), "\(ask)")
            let wrong = try await t.form(path, ["code": "AAAA-AAAA"]).text
            #expect(wrong.contains("Check it in your client (the app or the zkpin command)"), "\(wrong)")
            let code = try #require(Tokens.confirmationCode(regOTT: reg.regOTT))
            let done = try await t.form(path, ["code": code]).text
            #expect(done.contains("app@example.com can now choose a PIN: go back to your client (the app or the zkpin command)"), "\(done)")
        }
    }
}
