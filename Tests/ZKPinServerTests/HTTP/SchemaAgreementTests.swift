import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Schemathesis found requests that openapi.yaml and the code judged differently. openapi.yaml
/// now says what the code does, and the code refuses what the schema refuses: `confirm` other
/// than "yes" on logout is 400 (it was a 200 confirmation page); `mobile` is 0 or 1 as a JSON
/// number (1.0 too) or null, anything else 400; an access code field that is not seven digits
/// is 400 (it was 412, the answer for a well-formed code that is unknown or expired); and the
/// session-only forms refuse a malformed form with 400 before they look at the session (they
/// sent a browser without one to sign in, whatever the form said).
@Suite struct SchemaAgreementTests {
    static let origin = "http://127.0.0.1:8080"

    @Test func anAccessCodeIsSevenDigitsOr400() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            func codeStatus(_ wid: String) async throws -> Reply { try await t.json("POST", "/rps/codeStatus", CodeStatusRequest(wid: wid)) }
            for bad in ["", "123456", "12345678", "123456a", "１２３４５６７", " 1234567"] {
                let reply = try await codeStatus(bad)
                #expect(reply.status == 400 && reply.text.contains("wid must be"), "wid \(bad): \(reply.status) \(reply.text)")
            }
            // Seven digits: the store's answer (unknown, or a wrong check digit), as before.
            #expect(try await codeStatus("1234567").status == 412)

            let pass2 = { (wid: String, challenge: String) in
                try await t.send(
                    "POST", "/rps/pass2", headers: [("Content-Type", "application/json")],
                    body: Array(#"{"mpin_id": "ab", "V": "00", "WID": "\#(wid)", "challenge": "\#(challenge)", "pass": 2}"#.utf8))
            }
            let challenge = String(repeating: "0a", count: 16)
            let malformed = try await pass2("12", challenge)
            #expect(malformed.status == 400 && malformed.text.contains("WID must be"), "\(malformed.status) \(malformed.text)")
            #expect(try await pass2("", challenge).status == 400)
            #expect(try await pass2("1234567", challenge).status == 412)
            // A challenge that is not 32 lowercase hex digits is 400 before the code is looked at.
            for bad in ["c", challenge + "*", challenge.uppercased(), String(challenge.dropLast())] {
                let reply = try await pass2("1234567", bad)
                #expect(reply.status == 400 && reply.text.contains("challenge"), "challenge \(bad): \(reply.status) \(reply.text)")
            }

            let pass1 = { (wid: String) in
                try await t.send(
                    "POST", "/rps/pass1", headers: [("Content-Type", "application/json")],
                    body: Array(#"{"mpin_id": "ab", "U": "00", "WID": "\#(wid)", "pass": 1}"#.utf8))
            }
            let refused = try await pass1("wid")
            #expect(refused.status == 400 && refused.text.contains("WID must be"), "\(refused.status) \(refused.text)")
            // A well-formed WID (or "0") passes the form check; U is what is wrong then.
            for fine in ["0", "1234567"] {
                let reply = try await pass1(fine)
                #expect(reply.status == 400 && reply.text.contains("U is not a valid point"), "WID \(fine): \(reply.text)")
            }
        }
    }

    @Test func sessionFormsCheckTheFormBeforeTheSession() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let origin = [("Origin", Self.origin)]
            // No session cookie at all: a malformed form is 400, a well-formed one is sent to sign in.
            for decision in ["AAA", ""] {
                let reply = try await t.form("/device/confirm", ["user_code": "BCDF-GHJK", "decision": decision], headers: origin)
                #expect(reply.status == 400, "decision \(decision): \(reply.status)")
            }
            #expect(try await t.form("/device/confirm", ["user_code": "BCDF-GHJK"], headers: origin).status == 400)
            let allow = try await t.form("/device/confirm", ["user_code": "BCDF-GHJK", "decision": "allow"], headers: origin)
            #expect(allow.status == 303 && allow.header("Location") == "/device?user_code=BCDF-GHJK", "\(allow.status)")

            let empty = try await t.form("/account/revoke", [:], headers: origin)
            #expect(empty.status == 400 && empty.text.contains("mpinId"), "\(empty.status) \(empty.text)")
            #expect(try await t.send("POST", "/account/revoke", headers: origin, body: nil).status == 415)
            let revoke = try await t.form("/account/revoke", ["mpinId": "ab"], headers: origin)
            #expect(revoke.status == 303 && revoke.header("Location") == "/", "\(revoke.status)")
        }
    }

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
