import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Issue 29, finding 9: schemathesis found requests that openapi.yaml and the code judged
/// differently. openapi.yaml now says what the code does, and the code refuses what the schema
/// refuses: `confirm` other than "yes" on logout is 400 (it was a 200 confirmation page), and
/// `mobile` is 0 or 1 as a JSON number (1.0 too) or null, anything else 400.
@Suite struct SchemaAgreementTests {
    @Test func logoutConfirmIsYesOrNothing() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://127.0.0.1:8080")]
            let wrong = try await t.send("POST", "/oauth/logout", headers: headers, body: Array("confirm=AAA".utf8))
            #expect(wrong.status == 400 && wrong.text.contains("confirm must be"), "\(wrong.status)")
            let asked = try await t.get("/oauth/logout")
            #expect(asked.status == 200)
            let yes = try await t.send("POST", "/oauth/logout", headers: headers, body: Array("confirm=yes".utf8))
            #expect(yes.status == 200 && yes.text.contains("signed out"), "\(yes.status)")
        }
    }

    @Test func mobileIsZeroOrOneAsTheSchemaSays() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            func register(_ mobile: String, _ n: Int) async throws -> Int {
                let body = #"{"userId": "m\#(n)@example.com", "mobile": \#(mobile)}"#
                return try await t.send("PUT", "/rps/user", headers: [("Content-Type", "application/json")], body: Array(body.utf8)).status
            }
            for (n, ok) in ["0", "1", "1.0", "null"].enumerated() {
                let status = try await register(ok, n)
                #expect(status == 200, "mobile \(ok)")
            }
            for (n, bad) in ["true", "\"1\"", "2", "1.5", "-1"].enumerated() {
                let status = try await register(bad, 10 + n)
                #expect(status == 400, "mobile \(bad)")
            }
        }
    }
}
