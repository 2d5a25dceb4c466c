import Foundation
import Testing

@testable import ZKPinServer

/// The sign-in page leads a person without a terminal client to the web app, and folds the
/// terminal command away on a touch screen (the fold itself runs in the browser: webapp-test).
@Suite struct LoginPageAppLinkTests {
    @Test func theSignInPageLinksToTheAppAndFoldsTheCommand() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let html = try await t.get("/").text
            #expect(
                html.contains(#"<a id="app-link" class="here" href="/app/" target="_blank">No client? Use this phone or browser</a>"#),
                "\(html)")
            // The command, its copy button and the sentence before them are in one fold, open by
            // default (without script too), closed by the script where the pointer is coarse.
            let fold = try #require(html.range(of: #"<details id="cli" open>[\s\S]*?</details>"#, options: .regularExpression))
            for id in ["command", "copy"] { #expect(html[fold].contains(#"id="\#(id)""#), "#\(id) is outside the fold") }
            #expect(html[fold].contains("<summary>Sign in with the zkpin command</summary>"))
            let script = try await t.get("/pages/login.js").text
            #expect(script.contains("matchMedia('(pointer: coarse)')"))
            // The link and "Sign in here" take turns: the script shows one of them.
            #expect(script.contains("window.addEventListener('storage', offerHere)"))
        }
    }
}
