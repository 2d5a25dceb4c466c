import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// The account page's words: the sign-in before this one (not this one again), revoking the
/// device of this very sign-in only after a question that says so, and times that fit a line.
@Suite struct AccountPageTests {
    static let origin = AccountDevicesTests.origin

    @Test func previousSignInIsTheOneBeforeThisSession() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let laptop = try await TestUser.register(t, email: "pat@example.com", pin: 1357, outbox: h.outbox, device: "laptop")
            let first = try await AccountDevicesTests.session(t, user: laptop)
            let page = try await t.get("/account", headers: [("Cookie", first)]).text
            #expect(page.contains("Previous sign-in: none before this one."), "\(page)")
            let second = try await AccountDevicesTests.session(t, user: laptop)
            let again = try await t.get("/account", headers: [("Cookie", second)]).text
            let logins = try await h.rp.store.auditLog(AuditQuery(userId: "pat@example.com")).filter { $0.kind == "login" }
            #expect(logins.count == 2)
            let shown =
                #"Previous sign-in: <time datetime="\#(ISOTime.string(logins[0].time))">\#(PageTime.text(logins[0].time))</time>, with laptop"#
            #expect(again.contains(shown), "\(again)")
        }
    }

    @Test func revokingThisSignInsDeviceAsksAndSaysSo() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let laptop = try await TestUser.register(t, email: "lee@example.com", pin: 1357, outbox: h.outbox, device: "laptop")
            let cookie = try await AccountDevicesTests.session(t, user: laptop)
            let headers = [("Cookie", cookie), ("Origin", Self.origin)]
            let question = try await t.form("/account/revoke", ["mpinId": laptop.mpinId], headers: headers)
            #expect(question.text.contains("You signed in with this device just now."), "\(question.text)")
            #expect(try await h.rp.store.identity(mpinId: laptop.mpinId)?.state == .active)
            let revoked = try await t.form("/account/revoke", ["mpinId": laptop.mpinId, "confirm": "yes"], headers: headers)
            // Its session ends with it, and the answer says so (there is no account page to go back to).
            #expect(revoked.status == 200 && revoked.header("Set-Cookie")?.contains("Max-Age=0") == true, "\(revoked.headers)")
            let page = revoked.text
            #expect(page.contains("Revoked: <strong>laptop</strong> can no longer sign in."), "\(page)")
            #expect(page.contains("It is the device you signed in with, so this sign-in has ended too"), "\(page)")
            #expect(page.contains(#"<a id="sign-in" href="/">"#))
            #expect(try await t.get("/account", headers: [("Cookie", cookie)]).header("Location") == "/")
            // The page tells this browser's app (its list of usable identities) that it is revoked.
            #expect(page.contains(#"<script src="/pages/account.js" defer></script>"#))
            #expect(try await t.get("/pages/account.js").text.contains("localStorage.setItem('zkpin-revoked'"))
        }
    }

    @Test func timesAreMinutesInUTC() {
        #expect(PageTime.text(0) == "1970-01-01 00:00 UTC")
        #expect(PageTime.text(1_795_900_000) == "2026-11-28 21:06 UTC")
    }
}
