import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Every page fits a phone (viewport meta), names its language, and is usable with a screen
/// reader: the access code read digit by digit, the status announced, the activation form
/// focused with its error linked; and every word comes from the strings file.
@Suite struct PageAccessibilityTests {
    static let viewport = #"<meta name="viewport" content="width=device-width, initial-scale=1">"#

    func expectCommon(_ html: String, _ page: String) {
        #expect(html.contains(Self.viewport), "\(page) has no viewport meta")
        #expect(html.contains(#"<html lang="en">"#), "\(page) does not name its language")
        #expect(!html.contains("{{"), "\(page) has an unrendered tag")
    }

    @Test func theLoginPageReadsTheCodeDigitByDigitAndWrapsTheCommand() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let page = try await t.get("/")
            let html = page.text
            expectCommon(html, "the login page")
            let code = try #require(
                html.range(of: #"id="code">(\d{7})<"#, options: .regularExpression)
                    .map { String(html[$0].dropFirst(10).prefix(7)) })
            let spoken = code.map(String.init).joined(separator: " ")
            #expect(html.contains(#"role="img" aria-label="Access code: \#(spoken)" id="code""#), "\(html)")
            #expect(html.contains(#"id="status" role="status" aria-live="polite""#))
            #expect(html.contains(#"class="command""#) && html.contains("white-space:pre-wrap"))
            #expect(html.contains(#"id="copy""#))
            // The script's sentences come from the strings table too.
            #expect(html.contains(#"data-wrong-pin="Wrong PIN, try again (the same code still works).""#))
        }
    }

    @Test func theActivationFormIsFocusedLinksItsErrorAndLeadsBackToSignIn() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let reg = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "ann@example.com", deviceName: "phone"))
                .json(RegisterResponse.self)
            let link = try Outbox.activationLink(in: h.outbox, to: "ann@example.com")
            let path = String(link[link.range(of: "/mpinActivate")!.lowerBound...])

            let ask = try await t.get(path).text
            expectCommon(ask, "the activation page")
            #expect(ask.contains("autofocus"))
            #expect(ask.contains(#"aria-describedby="code-hint""#))
            #expect(ask.contains(#"<label for="code">"#))
            #expect(!ask.contains("aria-invalid"))

            let wrong = try await t.form(path, ["code": "AAAA-AAAA"])
            #expect(wrong.status == 400)
            expectCommon(wrong.text, "the activation page after a wrong code")
            #expect(wrong.text.contains(#"aria-describedby="wrong code-hint" aria-invalid="true""#))
            #expect(wrong.text.contains(#"id="wrong" role="alert""#))

            let code = try #require(Tokens.confirmationCode(regOTT: reg.regOTT))
            let done = try await t.form(path, ["code": code])
            #expect(done.status == 200)
            expectCommon(done.text, "the activated page")
            #expect(done.text.contains(#"<a href="/" id="sign-in">"#))
        }
    }

    @Test func theAccountAndMessagePagesHaveTheViewportToo() throws {
        let pages = try Pages()
        let account = pages.accountPage(serviceName: "ZKPin", account: AccountView(userId: "bo@example.com", device: "", lastLogin: nil))
        expectCommon(account, "the account page")
        #expect(account.contains("Device: (not named)") && account.contains("Last login: never"))
        expectCommon(HTMLPage.message(title: "Not found", "No such page."), "the message page")
    }

    @Test func everyWordTheTemplatesUseIsInTheStringsFile() throws {
        let table = PageStrings.table
        #expect(table["lang"] == "en")
        for name in ["login", "account", "activate", "message"] {
            let text = try Pages.source(name)
            let regex = try NSRegularExpression(pattern: #"\{\{t\.([A-Za-z]+)\}\}"#)
            let keys = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
            #expect(!keys.isEmpty, "\(name) uses no strings")
            for key in keys { #expect(table[key] != nil, "\(name).mustache uses t.\(key), which strings.en.json lacks") }
        }
    }
}
