import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Finding 10 of issue 16: the regOTT travels in a header (proxies log URLs), and share 1 is
/// served only for minutes after the activation, not for the registration's hour.
@Suite struct RegOTTTransportTests {
    @Test func share1ComesWithTheHeaderAndOnlyForMinutesAfterActivation() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let reg = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "vic@example.com")).json(RegisterResponse.self)
            let link = try Outbox.activationLink(in: h.outbox, to: "vic@example.com")
            let path = String(link[link.range(of: "/mpinActivate")!.lowerBound...])
            let code = try #require(Tokens.confirmationCode(regOTT: reg.regOTT))
            #expect(try await t.form(path, ["code": code]).status == 200)
            let header = [("X-ZKPin-RegOTT", reg.regOTT)]
            #expect(try await t.get("/rps/signature/\(reg.mpinId)", headers: header).status == 200)
            #expect(try await t.get("/rps/signature/\(reg.mpinId)", headers: [("X-ZKPin-RegOTT", "00" + reg.regOTT)]).status == 400)
            #expect(try await t.get("/rps/signature/\(reg.mpinId)").status == 400)
            // Within the window a crashed client can fetch it again; after it, nobody can.
            h.clock.advance(h.rp.config.shareWindow - 5)
            #expect(try await t.get("/rps/signature/\(reg.mpinId)", headers: header).status == 200)
            h.clock.advance(10)
            let late = try await t.get("/rps/signature/\(reg.mpinId)", headers: header)
            #expect(late.status == 400 && late.error?.message.contains("register again") == true, "\(late.text)")
            // Still well within the registration's hour: it is the share window that closed.
            #expect(try await h.rp.store.registration(mpinId: reg.mpinId).map { $0.expires > h.clock.now } == true)
        }
    }
}
