import Foundation
import Testing
import ZKPinServer
import ZKPinTestSupport

/// `zkpin-server demo` as the real executable: where it listens, the URL the page and its QR
/// code name, and what it says about trying the web app from a phone.
@Suite(.serialized) struct DemoCommandTests {
    /// Starts the demo, fetches the sign-in page, stops it; returns the page and all it printed.
    static func demo(_ extra: [String]) async throws -> (page: String, printed: String) {
        let data = try TempDir.make() + "/data"
        let port = ServerProcess.freePort()
        let server = try ServerProcess(
            ["demo", "--host", "127.0.0.1", "--port", String(port), "--data", data]
                + extra.map { $0.replacingOccurrences(of: "PORT", with: String(port)) },
            port: port)
        let start = try await server.waitUntilListening()
        let page = try await HTTPJSON.send(method: "GET", url: server.base + "/")
        server.stop()
        let rest = String(decoding: server.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(page.status == 200)
        return (String(decoding: page.body, as: UTF8.self), start + rest)
    }

    @Test func aLANAddressNamesThePageAndTheAppAndSaysTheAppCannotWorkThere() async throws {
        let (page, printed) = try await Self.demo(["--public-url", "http://192.0.2.10:PORT/"])
        let url = try #require(printed.firstMatch(of: /Open (http:\/\/192\.0\.2\.10:\d+)\/ to sign in\./)?.1, "\(printed)")
        #expect(page.contains("'\(url)/#"), "the QR payload names the public URL")
        #expect(printed.contains("The web app (a phone or this browser as the client): \(url)/app"), "\(printed)")
        #expect(printed.contains("cannot register or sign in"), "\(printed)")
        #expect(printed.contains("Trying the demo on a phone"), "\(printed)")
    }

    @Test func localhostAndHTTPSNeedNoNote() async throws {
        for url in ["http://localhost:PORT", "https://zkpin-demo.example.net"] {
            let (_, printed) = try await Self.demo(["--public-url", url])
            #expect(printed.contains("/app"), "\(printed)")
            #expect(!printed.contains("NOTE: a browser does not treat"), "\(url): \(printed)")
        }
    }

    @Test func everyAddressNeedsAPublicURL() throws {
        let run = try ProcessRun.run(ServerProcess.binary, ["demo", "--host", "0.0.0.0", "--data", try TempDir.make() + "/d"])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.contains("--public-url http://ADDRESS:8080"), "\(run.err)")
        let bad = try ProcessRun.run(ServerProcess.binary, ["demo", "--public-url", "192.0.2.10:8080", "--data", try TempDir.make() + "/d"])
        #expect(bad.status == 64 && bad.err.contains("must start with http:// or https://"), "\(bad.err)")
    }
}
