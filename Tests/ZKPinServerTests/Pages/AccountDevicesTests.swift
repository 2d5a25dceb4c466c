import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// The account page's devices: the person's identities listed, and "this device is lost":
/// a same-origin form revokes one of their own identities, audited and mailed; the revoked
/// device is refused at its next sign-in.
@Suite struct AccountDevicesTests {
    static let origin = "http://127.0.0.1:8080"

    /// A page session for `user` (pass 2 finishing the login while the page polls).
    static func session(_ t: any Transport, user: TestUser) async throws -> String {
        let drawn = try await t.send("POST", "/rps/getAccessNumber", headers: [], body: nil)
        let access = try drawn.json(AccessNumberResponse.self)
        async let login = user.pass12(t, wid: access.accessNumber, complete: true)
        var authOTT: String?
        for _ in 0..<200 {
            let s = try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT)).json(AccessResponse.self)
            if s.status == .authenticate { authOTT = s.authOTT; break }
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(try await login.status == 200)
        let session = try await t.form(
            "/session", ["webOTT": access.webOTT, "authOTT": try #require(authOTT)], headers: [("Origin", origin), try #require(drawn.pageCookie)])
        return String(try #require(session.header("Set-Cookie")).split(separator: ";")[0])
    }

    @Test func thePersonSeesTheirDevicesAndRevokesALostOne() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let laptop = try await TestUser.register(t, email: "dev@example.com", pin: 1357, outbox: h.outbox, device: "laptop")
            let phone = try await TestUser.register(t, email: "dev@example.com", pin: 2468, outbox: h.outbox, device: "phone")
            let other = try await TestUser.register(t, email: "other@example.com", pin: 1470, outbox: h.outbox, device: "tablet")
            let cookie = try await Self.session(t, user: laptop)
            let page = try await t.get("/account", headers: [("Cookie", cookie)])
            #expect(page.status == 200)
            #expect(page.text.contains("laptop (this sign-in)") && page.text.contains(">phone <"), "\(page.text)")
            #expect(!page.text.contains("tablet") && !page.text.contains(other.mpinId))
            #expect(page.text.contains("value=\"\(phone.mpinId)\""))

            // Cross-origin, no session, or someone else's device: refused, nothing changes.
            let fields = ["mpinId": phone.mpinId]
            #expect(try await t.form("/account/revoke", fields, headers: [("Cookie", cookie), ("Origin", "http://evil.example")]).status == 403)
            #expect(try await t.form("/account/revoke", fields, headers: [("Origin", Self.origin)]).header("Location") == "/")
            let foreign = try await t.form("/account/revoke", ["mpinId": other.mpinId], headers: [("Cookie", cookie), ("Origin", Self.origin)])
            #expect(foreign.status == 400)
            #expect(try await h.rp.store.identity(mpinId: other.mpinId)?.state == .active)
            #expect(try await h.rp.store.identity(mpinId: phone.mpinId)?.state == .active)

            // The button asks first, naming the device; nothing changes until the answer.
            let question = try await t.form("/account/revoke", fields, headers: [("Cookie", cookie), ("Origin", Self.origin)])
            #expect(question.status == 200 && question.text.contains("Revoke this device?") && question.text.contains("<strong>phone</strong>"))
            #expect(
                question.text.contains(#"<input type="hidden" name="confirm" value="yes">"#)
                    && question.text.contains(#"<a id="keep" href="/account">"#))
            #expect(!question.text.contains("You signed in with this device just now"), "the phone is not this sign-in's device")
            #expect(try await h.rp.store.identity(mpinId: phone.mpinId)?.state == .active)
            let answer = fields.merging(["confirm": "yes"]) { a, _ in a }
            let revoked = try await t.form("/account/revoke", answer, headers: [("Cookie", cookie), ("Origin", Self.origin)])
            let location = try #require(revoked.header("Location"))
            #expect(revoked.status == 303 && location == "/account?revoked=" + DeviceHandle.of(phone.mpinId))
            #expect(try await h.rp.store.identity(mpinId: phone.mpinId)?.state == .revoked)
            #expect(try await h.rp.store.identity(mpinId: laptop.mpinId)?.state == .active)
            let after = try await t.get(location, headers: [("Cookie", cookie)])
            #expect(after.text.contains(">revoked<") && !after.text.contains("value=\"\(phone.mpinId)\""), "\(after.text)")
            #expect(after.text.contains("Revoked: <strong>phone</strong> can no longer sign in."), "\(after.text)")
            #expect(after.text.contains("data-mpin-id=\"\(phone.mpinId)\""))
            // The message is not said on the plain page, nor for a handle of a device still active.
            #expect(!(try await t.get("/account", headers: [("Cookie", cookie)])).text.contains("Revoked:"))
            let active = "/account?revoked=" + DeviceHandle.of(laptop.mpinId)
            #expect(!(try await t.get(active, headers: [("Cookie", cookie)])).text.contains("Revoked:"))
            // Revoking again is not a second revocation.
            #expect(try await t.form("/account/revoke", answer, headers: [("Cookie", cookie), ("Origin", Self.origin)]).status == 400)

            // Audited, mailed, and refused at the next sign-in (403 at pass 1).
            let audit = try await h.rp.store.auditLog(AuditQuery(userId: "dev@example.com"))
            #expect(audit.filter { $0.kind == "device_revoke" && $0.mpinId == phone.mpinId }.count == 1)
            var mailed = false
            for _ in 0..<100 where !mailed {
                let mails = try FileManager.default.contentsOfDirectory(atPath: h.outbox).map {
                    try String(contentsOfFile: h.outbox + "/" + $0, encoding: .utf8)
                }
                mailed = mails.contains { $0.contains("To: dev@example.com") && $0.contains("device was revoked") && $0.contains("device: phone") }
                if !mailed { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(mailed)
            #expect(try await phone.login(t).status == 403)
            #expect(try await laptop.login(t).status == 200)
        }
    }
}
