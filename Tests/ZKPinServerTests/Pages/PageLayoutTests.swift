import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// One look and one policy for every page: the header and the shared stylesheet, no inline
/// script or style, the strict Content-Security-Policy; the stylesheet and scripts served at
/// /pages/ from the package's resources (no web folder needed), revalidated by ETag.
@Suite struct PageLayoutTests {
    /// No `<script>` without `src`, no `<style>`, no `style=` attribute.
    static func inline(_ html: String) -> [String] {
        var found: [String] = []
        if html.range(of: #"<script(?![^>]*\bsrc=)"#, options: .regularExpression) != nil { found.append("inline script") }
        if html.contains("<style") { found.append("style element") }
        if html.range(of: #"\sstyle=""#, options: .regularExpression) != nil { found.append("style attribute") }
        return found
    }

    @Test func everyPageHasTheHeaderTheStylesheetAndTheStrictPolicy() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            _ = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "lay@example.com", deviceName: "phone"))
            let link = try Outbox.activationLink(in: h.outbox, to: "lay@example.com")
            let activation = String(link[link.range(of: "/mpinActivate")!.lowerBound...])
            for path in ["/", activation, "/device", "/no-such-page"] {
                let page = try await t.get(path, headers: [("Accept", "text/html")])
                #expect(page.header("Content-Security-Policy") == HTMLPage.policy, "\(path)")
                #expect(Self.inline(page.text).isEmpty, "\(path): \(Self.inline(page.text))")
                #expect(page.text.contains(#"<link rel="stylesheet" href="/pages/pages.css">"#), "\(path)")
                #expect(page.text.contains(#"<link rel="stylesheet" href="/pages/brand.css">"#), "\(path)")
                #expect(page.text.contains(#"<header><img src="/pages/logo" alt=""#), "\(path)")
            }
            #expect(HTMLPage.policy.contains("script-src 'self'") && !HTMLPage.policy.contains("unsafe-inline"))
        }
    }

    @Test func theStylesheetAndScriptsAreServedFromTheResources() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            for (path, type) in [
                ("/pages/pages.css", "text/css; charset=utf-8"), ("/pages/login.js", "text/javascript; charset=utf-8"),
                ("/pages/account.js", "text/javascript; charset=utf-8")
            ] {
                let file = try await t.get(path)
                #expect(file.status == 200 && file.header("Content-Type") == type && file.header("Cache-Control") == "no-cache", "\(path)")
                let etag = try #require(file.header("ETag"))
                #expect(try await t.get(path, headers: [("If-None-Match", etag)]).status == 304)
            }
            // The stylesheet holds the rules the pages rely on: 48 px controls, the header.
            let css = try await t.get("/pages/pages.css").text
            #expect(css.contains("button{min-height:48px") && css.contains("body>header{"))
            #expect(try await t.get("/pages/nothing.js").status == 404)
            #expect(try await t.get("/pages/../Templates/login.mustache").status == 404)
        }
    }
}
