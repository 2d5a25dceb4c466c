import Foundation
import Testing
import ZKPinClient
import ZKPinWire

/// `zkpin otp` against a real `zkpin-server`: the code alone on the last line of standard
/// output, `--json` that is one document and nothing else, the code accepted once at
/// `/otp/verify`, and a wrong PIN and a block told as at a login.
@Suite(
    .serialized,
    .enabled(
        if: Binaries.serverAvailable,
        "zkpin-server is not built beside the tests; run `swift build --product zkpin-server` (same --scratch-path) to run the end-to-end tests"))
struct OTPCommandTests {
    /// `admin clients add NAME --otp`: the id and secret it prints.
    static func addService(_ name: String, on server: TestServer) async throws -> (id: String, secret: String) {
        let add = try ChildProcess(Binaries.server, ["admin", "clients", "add", name, "--otp", "--data", server.data])
        add.closeInput()
        #expect(await add.waitForExit() == 0, "\(add.standardError)")
        let id = try #require(firstMatch(#"client_id: (\S+)"#, in: add.standardOutput))
        let secret = try #require(firstMatch(#"client_secret: (\S+)"#, in: add.standardOutput))
        return (id, secret)
    }

    static func verify(_ server: TestServer, _ service: (id: String, secret: String), user: String, otp: String) async throws -> Bool {
        let answer = try await server.http.send(
            .post, server.base + "/otp/verify", OTPVerifyRequest(user: user, otp: otp, clientId: service.id, clientSecret: service.secret))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return try answer.decode(OTPVerifyResponse.self).valid
    }

    @Test func printsACodeThatIsAcceptedOnce() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("olli@example.com", on: server)
        let vpn = try await Self.addService("VPN", on: server)

        let run = try await home.run(["otp", "--pin-stdin"], input: "1234\n")
        #expect(run.status == 0, "\(run.err)")
        // Standard output is the code and nothing else, so `zkpin otp | xclip` copies it.
        #expect(run.out.range(of: #"^[0-9]{6}\n$"#, options: .regularExpression) != nil, "\(run.out)")
        #expect(run.err.contains("For VPN, as olli@example.com"), "\(run.err)")
        let code = run.out.trimmingCharacters(in: .newlines)
        #expect(try await Self.verify(server, vpn, user: "olli@example.com", otp: code))
        #expect(try await Self.verify(server, vpn, user: "olli@example.com", otp: code) == false)

        // --json: one document with exactly the three fields; --server and --service named.
        let json = try await home.run(["otp", "--server", server.base, "--service", "vpn", "--pin-stdin", "--json"], input: "1234\n")
        #expect(json.status == 0, "\(json.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out)")
        #expect(Set(document.keys) == ["otp", "expiresIn", "service"], "\(json.out)")
        #expect(document["expiresIn"] as? Int == 90 && document["service"] as? String == "VPN")
        #expect(json.out.filter { $0 == "\n" }.count == 1, "\(json.out)")
        let second = try #require(document["otp"] as? String)
        #expect(try await Self.verify(server, vpn, user: "olli@example.com", otp: second))

        // An unknown service is refused as bad input, before any PIN counts.
        let unknown = try await home.run(["otp", "--service", "nope", "--pin-stdin", "--json"], input: "1234\n")
        #expect(unknown.status == 2, "\(unknown.err)")
        #expect(unknown.err.contains("no one-time code service is named nope"), "\(unknown.err)")
    }

    @Test func wrongPINsAreToldAndBlockAsAtALogin() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("wanda@example.com", on: server)
        _ = try await Self.addService("VPN", on: server)

        let wrong = try await home.run(["otp", "--pin-stdin", "--json"], input: "9999\n")
        #expect(wrong.status == 1, "\(wrong.err)")
        let document = try JSONSerialization.jsonObject(with: Data(wrong.out.utf8)) as? [String: Any]
        #expect(document?["status"] as? String == "INCORRECT_PIN", "\(wrong.out)")
        #expect(document?["attemptsLeft"] as? Int == 2, "\(wrong.out)")
        #expect(document?["otp"] == nil)
        #expect(try await home.run(["otp", "--pin-stdin"], input: "9998\n").status == 1)
        let blocked = try await home.run(["otp", "--pin-stdin"], input: "9997\n")
        #expect(blocked.status == 1)
        #expect(blocked.err.contains("is blocked"), "\(blocked.err)")
        #expect(blocked.out.isEmpty, "\(blocked.out)")
        #expect(try await home.users().first?["state"] as? String == "BLOCKED")
        // Still blocked: refused before any PIN is asked.
        let still = try await home.run(["otp", "--pin-stdin"])
        #expect(still.status == 1 && still.err.contains("is still blocked"), "\(still.err)")
        // After the operator's unblock the kept token and PIN get a code again.
        let unblock = try ChildProcess(Binaries.server, ["admin", "unblock", "wanda@example.com", "--data", server.data])
        unblock.closeInput()
        #expect(await unblock.waitForExit() == 0, "\(unblock.standardError)")
        let again = try await home.run(["otp", "--pin-stdin"], input: "1234\n")
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.range(of: #"^[0-9]{6}\n$"#, options: .regularExpression) != nil, "\(again.out)")
    }
}
