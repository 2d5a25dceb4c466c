import Foundation
import Testing

/// A `--home` folder for the `zkpin` runs of one test, and the common steps.
struct ClientHome {
    let folder = TemporaryFolder("zkpin-e2e-home")
    var path: String { folder.path }

    func run(_ arguments: [String], input: String = "") async throws -> CLIResult {
        try await runClient(arguments + ["--home", path], input: input)
    }

    /// `register --no-wait`, the printed code typed on the mailed link's page, then `confirm`.
    func register(_ email: String, on server: TestServer, pin: String = "1234") async throws {
        let started = try await run(["register", email, "--server", server.base, "--no-wait", "--device", "test"])
        #expect(started.status == 0, "\(started.err)")
        let code = try #require(firstMatch(#"Confirmation code: ([A-Z2-7]{4}-[A-Z2-7]{4})"#, in: started.out))
        #expect(try await server.activate(email: email, code: code) == 200)
        // The tests' PINs (1234, 1111, ...) are trivial on purpose: easy to read.
        let confirmed = try await run(
            ["confirm", email, "--server", server.base, "--pin-stdin", "--allow-trivial-pin", "--wait", "30"],
            input: pin + "\n")
        #expect(confirmed.status == 0, "\(confirmed.err)")
        #expect(confirmed.out.contains("Registered \(email)"))
    }

    /// `zkpin login` on a fresh access code while a page polls it; returns the run and the
    /// page's last status.
    func login(on server: TestServer, pin: String, extra: [String] = [], payload: ((String) -> String)? = nil)
        async throws -> (CLIResult, AccessResponseSummary)
    {
        let access = try await server.accessNumber()
        let text = payload?(access.accessNumber) ?? access.qrUrl
        let page = Task { try await server.pollAccess(webOTT: access.webOTT, seconds: 40) }
        let result = try await run(["login", text, "--pin-stdin"] + extra, input: pin + "\n")
        // A refused login never reaches `authenticate`: stop the page's polling at once.
        guard result.status == 0 else {
            page.cancel()
            return (result, AccessResponseSummary(status: "refused", userId: nil))
        }
        let final = try await page.value
        let status = AccessResponseSummary(status: final.status.rawValue, userId: final.userId)
        return (result, status)
    }

    func users() async throws -> [[String: Any]] {
        let result = try await run(["users", "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        return object?["users"] as? [[String: Any]] ?? []
    }
}

struct AccessResponseSummary {
    var status: String
    var userId: String?
}

func firstMatch(_ pattern: String, in text: String) -> String? {
    guard let regex = try? NSRegularExpression(pattern: pattern),
        let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
        let range = Range(match.range(at: match.numberOfRanges > 1 ? 1 : 0), in: text)
    else { return nil }
    return String(text[range])
}
