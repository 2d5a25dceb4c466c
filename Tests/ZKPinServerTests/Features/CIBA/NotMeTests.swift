import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// "Not me" on a site's request: signed like any answer, the site gets access_denied, the
/// person is mailed, the answer is audited and counted, and with `--not-me-blocks on` every
/// identity of the person is blocked until an operator unblocks them.
@Suite struct CIBANotMeTests {
    @Test(arguments: [false, true]) func notMeDeniesMailsAndMayBlock(blocks: Bool) async throws {
        let h = try await Harness.make { $0.notMeBlocks = blocks }
        let site = try await BackchannelRequestTests.addSite(h)
        try await h.run { t in
            let alice = try await ApprovalTests.Signer.register(t, h, email: "alice@example.com", pin: 1234)
            let asked = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment).json(BackchannelResponse.self)
            let request = try #require(try await alice.list(t, time: h.clock.now).json(ApprovalsResponse.self).requests.first)
            let answered = try await alice.answer(t, request, verb: "not_me", time: h.clock.now)
            #expect(try answered.json(ApprovalAnswerResponse.self).status == "not_me", "\(answered.text)")
            h.clock.advance(6)
            let polled = try await BackchannelRequestTests.poll(t, site, asked.auth_req_id)
            #expect(polled.text.contains("access_denied"), "\(polled.text)")
            let audit = try await h.rp.store.auditLog(AuditQuery(userId: "alice@example.com")).map(\.kind)
            #expect(audit.contains("ciba_not_me"), "\(audit)")
            #expect(try await t.get("/metrics").text.contains("zkpin_not_me_total 1"))
            let state = try await h.rp.store.identity(mpinId: alice.user.mpinId)?.state
            #expect(state == (blocks ? .blocked : .active))
            let mail = try await Outbox.mail(in: h.outbox, containing: "Not me")
            #expect(mail.contains("Bank asks you to approve: Pay 100 EUR to Bob") && mail.contains("blocked until") == blocks, "\(mail)")
            // A verb that is not an answer: 400 (the identity still active to sign it).
            if !blocks {
                _ = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment)
                let next = try #require(try await alice.list(t, time: h.clock.now).json(ApprovalsResponse.self).requests.first)
                #expect(try await alice.answer(t, next, verb: "maybe", time: h.clock.now).status == 400)
            }
        }
    }
}

/// `zkpin-server admin keys vapid`: the public key shown; `--rotate` makes a new pair, keeps
/// the old one retired beside it (0600), and a server started afterwards offers the new key.
@Suite struct VAPIDKeyCommandTests {
    @Test func showAndRotate() async throws {
        let h = try await Harness.make()
        let before = try await h.run { t in try await t.get("/rps/push/settings").json(PushSettings.self).vapidPublicKey }
        let shown = try await AdminCommandTests.admin(["keys", "vapid", "--data", h.dir])
        #expect(shown.status == 0 && shown.out.contains("VAPID public key: \(before)"), "\(shown.out)\(shown.err)")
        let rotated = try await AdminCommandTests.admin(["keys", "vapid", "--rotate", "--data", h.dir])
        #expect(rotated.status == 0 && rotated.out.contains("the old key is kept as"), "\(rotated.out)\(rotated.err)")
        let after = try VAPIDKey.loadOrCreate(dataDirectory: h.dir).applicationServerKey
        #expect(after != before && rotated.out.contains(after))
        let retired = try FileManager.default.contentsOfDirectory(atPath: h.dir).filter { $0.hasPrefix("vapid.key.retired-") }
        #expect(retired.count == 1)
        for name in [VAPIDKey.fileName] + retired {
            #expect((try FileManager.default.attributesOfItem(atPath: h.dir + "/" + name)[.posixPermissions] as? Int) == 0o600)
        }
        #expect(try VAPIDKey.load(path: h.dir + "/" + retired[0], create: false).applicationServerKey == before)
        let empty = try TempDir.make()
        let none = try await AdminCommandTests.admin(["keys", "vapid", "--data", empty])
        #expect(none.status != 0 && none.err.contains("no VAPID key"), "\(none.err)")
    }
}
