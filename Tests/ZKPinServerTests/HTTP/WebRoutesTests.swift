import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import ZKPinProtocol

@testable import ZKPinServer

/// The web client's files (`/js/...`, `/app/...`): content types, the strict policy, caching,
/// and nothing outside the web folder's served files (docs/operator.md "The web app").
@Suite struct WebRoutesTests {
    /// A web folder with the served files, and beside and inside it files that must never be
    /// served: a secret next to the folder, a hidden file, a text file, a link out of the folder,
    /// a test module.
    static func folder() throws -> (web: String, root: String) {
        let root = try TempDir.make()
        let web = root + "/web"
        let fm = FileManager.default
        for dir in ["lib", "app", "test"] { try fm.createDirectory(atPath: web + "/" + dir, withIntermediateDirectories: true) }
        let files: [String: String] = [
            "/secret.js": "SECRET",
            "/web/mpin.js": "import { a } from \"./lib/a.js\";\nexport const b = a;\n",
            "/web/lib/a.js": "export const a = 1;\n",
            "/web/app/index.html": "<!doctype html><title>app</title>",
            "/web/app/app.css": "body{}",
            "/web/app/app.js": "console.log(1);",
            "/web/app/manifest.webmanifest": "{}",
            "/web/app/icon.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
            "/web/app/.hidden.js": "HIDDEN",
            "/web/app/notes.txt": "NOTES",
            "/web/test/t.test.js": "TEST",
            "/web/package.json": "{}"
        ]
        for (path, text) in files { try text.write(toFile: root + path, atomically: true, encoding: .utf8) }
        try fm.createSymbolicLink(atPath: web + "/app/link.js", withDestinationPath: root + "/secret.js")
        return (web, root)
    }

    @Test func filesHaveTheirTypesAStrictPolicyAndRevalidation() async throws {
        let (web, _) = try Self.folder()
        let h = try await Harness.make(configure: { $0.webDirectory = web })
        try await h.run { t in
            let cases: [(String, String, String)] = [
                ("/js/mpin.js", "text/javascript; charset=utf-8", "export const b"),
                ("/js/lib/a.js", "text/javascript; charset=utf-8", "export const a"),
                ("/app", "text/html; charset=utf-8", "<title>app</title>"),
                ("/app/", "text/html; charset=utf-8", "<title>app</title>"),
                ("/app/index.html", "text/html; charset=utf-8", "<title>app</title>"),
                ("/app/app.css", "text/css; charset=utf-8", "body{}"),
                ("/app/app.js", "text/javascript; charset=utf-8", "console.log"),
                ("/app/manifest.webmanifest", "application/manifest+json", "{}"),
                ("/app/icon.svg", "image/svg+xml", "<svg")
            ]
            for (path, type, start) in cases {
                let r = try await t.get(path)
                #expect(r.status == 200, "\(path): \(r.status)")
                #expect(r.header("Content-Type") == type, "\(path): \(r.headers)")
                #expect(r.text.contains(start), "\(path): \(r.text)")
                let csp = r.header("Content-Security-Policy") ?? ""
                #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self';"), "\(path): \(csp)")
                #expect(!csp.contains("unsafe-inline") && !csp.contains("http"), "\(path): \(csp)")
                #expect(r.header("X-Content-Type-Options") == "nosniff")
                #expect(r.header("Cache-Control") == "no-cache")
                let etag = try #require(r.header("ETag"), "\(path)")
                let again = try await t.get(path, headers: [("If-None-Match", etag)])
                #expect(again.status == 304 && again.text.isEmpty, "\(path): \(again.status)")
            }
        }
    }

    @Test func nothingOutsideTheServedFilesIsServed() async throws {
        let (web, _) = try Self.folder()
        let h = try await Harness.make(configure: { $0.webDirectory = web })
        try await h.run { t in
            let refused = [
                "/js/../secret.js", "/js/lib/../../secret.js", "/app/../secret.js", "/app/..%2f..%2fsecret.js",
                "/app/%2e%2e/%2e%2e/secret.js", "/js/..%2fsecret.js", "/js/lib/..%2f..%2f..%2fsecret.js",
                "/app/.hidden.js", "/app/notes.txt", "/app/link.js", "/js/test/t.test.js", "/js/package.json",
                "/js/lib", "/js/lib/", "/js/", "/app/index.html/", "/js/mpin.js%00.txt", "/js//etc/passwd",
                "/app/%2fetc%2fpasswd"
            ]
            for path in refused {
                let r = try await t.get(path)
                #expect(r.status == 404 || r.status == 400, "\(path): \(r.status) \(r.text)")
                #expect(!r.text.contains("SECRET") && !r.text.contains("HIDDEN") && !r.text.contains("NOTES") && !r.text.contains("TEST"), "\(path)")
            }
        }
    }

    /// The repository's own web folder (what a development build serves): the module's imports
    /// resolve under /js/, and the app's page loads only its own scripts and styles.
    @Test func theRepositoryModuleAndAppAreServedWhole() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
        let h = try await Harness.make(configure: { $0.webDirectory = repository + "/web" })
        try await h.run { t in
            var pending = ["/js/mpin.js"], seen: Set<String> = []
            while let path = pending.popLast() {
                guard seen.insert(path).inserted else { continue }
                let r = try await t.get(path)
                #expect(r.status == 200 && r.header("Content-Type") == "text/javascript; charset=utf-8", "\(path): \(r.status)")
                for match in r.text.matches(of: /from\s+"(\.{1,2}\/[^"]+)"/) {
                    let base = URL(string: "http://x" + path)!
                    pending.append(URL(string: String(match.1), relativeTo: base)!.absoluteURL.path)
                }
            }
            #expect(seen.count > 5, "\(seen)")
            let page = try await t.get("/app/")
            #expect(page.status == 200 && page.text.contains("<script type=\"module\" src=\"/app/app.js\"></script>"), "\(page.text)")
            #expect(!page.text.contains("<script>") && !page.text.contains("style="))
            for file in ["/app/app.js", "/app/app.css", "/app/sw.js", "/app/manifest.webmanifest", "/app/icon.svg", "/app/icon-192.png"] {
                #expect(try await t.get(file).status == 200, "\(file)")
            }
            // The service worker's shell lists every module the app needs offline.
            let worker = try await t.get("/app/sw.js").text
            for path in seen.union(["/app/", "/app/app.js", "/app/client.js", "/app/identities.js", "/app/app.css"]) {
                #expect(worker.contains("\"\(path)\""), "sw.js does not cache \(path)")
            }
        }
    }

    @Test func aWebDirWithoutTheModuleStopsTheStart() throws {
        let empty = try TempDir.make()
        #expect(throws: SetupError.self) { try WebFolder.find(setting: empty) }
        // The development build finds the repository's web/ above .build/.
        let (web, root) = try Self.folder()
        try "".write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        let exe = root + "/.build/x86_64-unknown-linux-gnu/debug/zkpin-server"
        #expect(try WebFolder.find(setting: nil, executable: exe) == web)
        // An install's share/zkpin/web comes first.
        let share = root + "/share/zkpin/web"
        try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
        try "".write(toFile: share + "/mpin.js", atomically: true, encoding: .utf8)
        #expect(try WebFolder.find(setting: nil, executable: root + "/bin/zkpin-server") == share)
        #expect(try WebFolder.find(setting: nil, executable: "/nonexistent/bin/zkpin-server") == nil)
    }

    /// A D-TA 2 on another origin: the app's policy names it as the one other origin to
    /// connect to, and `zkpin-server dta --cors-origin` answers that origin (and only it).
    @Test func aSeparateDTA2IsTheOneOtherOriginAndAnswersOnlyTheApps() async throws {
        #expect(WebRoutes.policy(dta2URL: "https://dta2.example.com:8443/").contains("connect-src 'self' https://dta2.example.com:8443;"))
        #expect(WebRoutes.policy().contains("connect-src 'self';"))
        let dir = try TempDir.make()
        let dta2 = DTA2Service(
            authority: try TrustedAuthority.load(path: dir + "/dta2.master", suite: CurveID.bn254cx.suite),
            key: Array(repeating: 7, count: 32))
        let app = Application(router: ZKPinServerApp.dtaRouter(dta2, logger: Logger(label: "test"), corsOrigin: "https://login.example.com"))
        try await app.test(.router) { client in
            let r = try await client.execute(uri: "/status", method: .get, headers: [.origin: "https://login.example.com"])
            #expect(r.status == .ok && r.headers[.accessControlAllowOrigin] == "https://login.example.com")
            let other = try await client.execute(uri: "/status", method: .get, headers: [.origin: "https://evil.example"])
            #expect(other.headers[.accessControlAllowOrigin] != "https://evil.example")
        }
        let closed = Application(router: ZKPinServerApp.dtaRouter(dta2, logger: Logger(label: "test")))
        try await closed.test(.router) { client in
            let r = try await client.execute(uri: "/status", method: .get, headers: [.origin: "https://login.example.com"])
            #expect(r.status == .ok && r.headers[.accessControlAllowOrigin] == nil)
        }
    }
}
