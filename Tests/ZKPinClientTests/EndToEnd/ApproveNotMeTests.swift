import Foundation
import Testing

/// `zkpin approve --not-me`: the request is denied for the site (access_denied) and the server
/// is told the person did not ask (its answer `not_me`, said on the line); `--not-me` with
/// `--deny` or `--watch` is a usage error.
@Suite struct ApproveNotMeTests {
    @Test func notMeDeniesAndSaysSo() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("nora@example.com", on: server, pin: "2468")
        let mixed = try await home.run(["approve", "--not-me", "--deny", "--pin-stdin"], input: "2468\n")
        #expect(mixed.status == 2 && mixed.err.contains("--not-me answers one request"), "\(mixed.err)")

        let bank = try await CIBASite.add("Bank", on: server)
        let asked = try await bank.ask("Transfer 900 EUR", hint: "nora@example.com")
        let run = try await home.run(["approve", "--not-me", "--pin-stdin", "--json"], input: "2468\n")
        #expect(run.status == 0, "\(run.err)")
        let document = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        #expect(document?["status"] as? String == "not_me" && document?["authReqId"] as? String == asked, "\(run.out)")
        #expect(try await bank.answer(asked)["error"] as? String == "access_denied")
        let again = try await bank.ask("Transfer 10 EUR", hint: "nora@example.com")
        let plain = try await home.run(["approve", "--not-me", "--pin-stdin"], input: "2468\n")
        #expect(plain.status == 0 && plain.out.contains("Denied as not yours"), "\(plain.out)\(plain.err)")
        #expect(try await bank.answer(again)["error"] as? String == "access_denied")
    }
}
