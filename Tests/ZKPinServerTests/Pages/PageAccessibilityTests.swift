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
        // axe-core's landmark-one-main and region: the header (a banner), then everything else
        // inside one <main>.
        #expect(html.components(separatedBy: "<main>").count == 2, "\(page) has no single <main> landmark")
        #expect(
            html.range(
                of: #"<body>\s*<header><img src="/pages/logo" alt="" width="32" height="32"><span>[^<]+</span></header>\s*<main>"#,
                options: .regularExpression)
                != nil, "\(page): content before <main> other than the header")
        #expect(html.range(of: #"</main>\s*</body>"#, options: .regularExpression) != nil, "\(page): content after </main>")
        // One stylesheet (WCAG 2.2 target size: its buttons are 48 px tall), no inline style.
        #expect(html.contains(#"<link rel="stylesheet" href="/pages/pages.css">"#) && !html.contains("<style"), "\(page)")
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
            #expect(html.contains(#"class="command""#))
            #expect(html.contains(#"id="copy""#))
            // By default the command is the installed client's.
            #expect(html.contains(#"<pre class="command" id="command">zkpin login '"#), "\(html)")
            // What goes when the login is blocked or refused is in one element the script hides.
            let live = try #require(html.range(of: #"<div id="live">[\s\S]*?id="ttl"[\s\S]*?</div>"#, options: .regularExpression))
            for id in ["command", "copy", "code", "qr", "ttl"] { #expect(html[live].contains(#"id="\#(id)""#), "#\(id) is outside #live") }
            #expect(html.contains(#"<script src="/pages/login.js" defer></script>"#))
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

    /// `zkpin-server demo --client-command PATH` (tools/demo): the page shows the client that
    /// works, quoted for the shell when its path needs it (issue 28, finding 2).
    @Test func theLoginPageShowsTheClientCommandItIsGiven() throws {
        let plain = try Pages(clientCommand: "/home/ann/zkpin/.build/release/zkpin")
            .loginPage(serviceName: "ZKPin", accessNumber: "1234567", webOTT: "w", ttl: 60, qrUrl: "http://127.0.0.1:8080/#1234567")
        #expect(plain.contains(#"id="command">/home/ann/zkpin/.build/release/zkpin login 'http://127.0.0.1:8080/#1234567'</pre>"#), "\(plain)")
        let spaced = try Pages(clientCommand: "/home/ann/my code/zkpin")
            .loginPage(serviceName: "ZKPin", accessNumber: "1234567", webOTT: "w", ttl: 60, qrUrl: "http://127.0.0.1:8080/#1234567")
        #expect(spaced.contains(#"id="command">&#39;/home/ann/my code/zkpin&#39; login"#), "\(spaced)")
        // A quote in the path, and a first word that a shell would take for an assignment.
        #expect(Pages.shellWord("/home/o'neil/zkpin") == #"'/home/o'\''neil/zkpin'"#)
        #expect(Pages.shellWord("A=b/zkpin") == "'A=b/zkpin'")
    }

    @Test func theAccountAndMessagePagesHaveTheViewportToo() throws {
        let pages = try Pages()
        let account = pages.accountPage(serviceName: "ZKPin", account: AccountView(userId: "bo@example.com", device: "", lastLogin: nil))
        expectCommon(account, "the account page")
        #expect(account.contains("Device: (not named)") && account.contains("Previous sign-in: none before this one."))
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
