import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Every form endpoint reads its body with one bound (FormBounds) before Hummingbird's form
/// decoder runs: a body of `a[]=1&` as large as the form limit allows is refused at its first
/// name, one of `a=1&` after its 33rd field, with 400 and a message that says why; a body of the
/// same size with few fields is still read as usual. A larger body is 413 before it is read.
@Suite struct FormBoundTests {
    static let origin = "http://127.0.0.1:8080"
    /// 2,730 fields, 16,380 bytes: under the 16 KB body limit of the pages and OpenID Connect.
    static let flood = Array(String(repeating: "a[]=1&", count: 16_380 / 6).utf8)
    /// 4,095 fields of `a=1&`, 16,380 bytes.
    static let plainFlood = Array(String(repeating: "a=1&", count: 16_380 / 4).utf8)

    @Test func aFloodOfArrayFieldsIsRefusedAtEveryFormEndpoint() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", Self.origin)]
            for path in ["/session", "/oauth/authorize/complete", "/oauth/logout", "/oauth/token", "/oauth/authorize"] {
                // The recipe of the attack: refused at its first name (brackets).
                let reply = try await t.send("POST", path, headers: headers, body: Self.flood)
                #expect(reply.status == 400, "\(path): \(reply.status)")
                #expect(reply.text.contains("may hold only letters, digits"), "\(path): \(reply.text.prefix(300))")
                // The same size in plain fields: refused at the 33rd.
                let many = try await t.send("POST", path, headers: headers, body: Self.plainFlood)
                #expect(many.status == 400, "\(path): \(many.status)")
                #expect(many.text.contains("more than 32 fields"), "\(path): \(many.text.prefix(300))")
            }
            // A name with brackets is refused however few fields there are.
            let bracket = try await t.send("POST", "/session", headers: headers, body: Array("webOTT[x]=1&authOTT=2".utf8))
            #expect(bracket.status == 400 && bracket.text.contains("letters, digits"), "\(bracket.status) \(bracket.text.prefix(300))")
            // The same size with two fields is a form like any other (an unknown login: 403).
            let big = "webOTT=" + String(repeating: "a", count: 16_000) + "&authOTT=00"
            let plain = try await t.send("POST", "/session", headers: headers, body: Array(big.utf8))
            #expect(plain.status == 403, "\(plain.status) \(plain.text.prefix(300))")
            // A 64 KB value of `+` (about 10 ms of decoding once) is refused before it is read.
            let plus = "webOTT=" + String(repeating: "+", count: 65_000)
            let tooLarge = try await t.send("POST", "/session", headers: headers, body: Array(plus.utf8))
            #expect(tooLarge.status == 413, "\(tooLarge.status) \(tooLarge.text.prefix(300))")
        }
    }

    @Test func theBoundCountsFieldsAndNames() {
        #expect(FormBounds.problem("".utf8) == nil)
        #expect(FormBounds.problem("a=1&b=2&c=%5B%5D".utf8) == nil)  // brackets in a value are data
        #expect(FormBounds.problem(String(repeating: "a=1&", count: 31).appending("z=1").utf8) == nil)
        #expect(FormBounds.problem(String(repeating: "a=1&", count: 32).appending("z=1").utf8) != nil)
        #expect(FormBounds.problem("a%5B%5D=1".utf8) != nil)  // an encoded bracket in a name too
        #expect(FormBounds.problem(String(repeating: "n", count: 65).appending("=1").utf8) != nil)
    }
}
