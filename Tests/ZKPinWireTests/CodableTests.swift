import Foundation
import Testing
import ZKPinWire

@Suite struct CodableTests {
    func json(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func authenticationFieldNamesFollowMPin() throws {
        let p1 = try json(Pass1Request(mpinId: "ab", u: "02", ut: "03"))
        #expect(Set(p1.keys) == ["mpin_id", "U", "UT", "pass"])
        #expect(p1["pass"] as? Int == 1)
        let p2 = try json(Pass2Request(mpinId: "ab", v: "04", wid: "0", challenge: "c"))
        #expect(Set(p2.keys) == ["mpin_id", "V", "WID", "challenge", "OTP", "pass"])
        #expect(p2["pass"] as? Int == 2)
        let auth = try json(AuthenticateRequest(authOTT: "ff"))
        #expect((auth["mpinResponse"] as? [String: Any])?["authOTT"] as? String == "ff")
    }

    @Test func pass1WithoutUTDecodes() throws {
        let text = #"{"mpin_id":"ab","U":"02","pass":1}"#
        let r = try JSONDecoder().decode(Pass1Request.self, from: Data(text.utf8))
        #expect(r.ut == nil && r.u == "02" && r.mpinId == "ab")
    }

    @Test func discoveryFieldNames() throws {
        let s = try json(ServiceInfo(name: "n", url: "http://x", logoURL: "http://x/logo"))
        #expect(Set(s.keys) == ["name", "url", "rps_prefix", "logo_url", "type"])
        #expect(s["rps_prefix"] as? String == "rps" && s["type"] as? String == "online")
        let settings = ClientSettings(
            signatureURL: "/rps/signature", registerURL: "/rps/user",
            timePermitsURL: "/rps/timePermit", mpinAuthServerURL: "/rps",
            mobileAuthenticateURL: "/rps/authenticate", curve: "bls12-381",
            usePermits: false, maxInvalidLoginAttempts: 3, dta2URL: "/dta2")
        let c = try json(settings)
        #expect(c["accessNumberDigits"] as? Int == 7)
        #expect(c["cSum"] as? Int == 1)
        #expect(c["dta2URL"] as? String == "/dta2")
        #expect(ClientSettings.resolve("/dta2", against: "http://h:1/") == "http://h:1/dta2")
        #expect(ClientSettings.resolve("dta2", against: "http://h:1") == "http://h:1/dta2")
        #expect(ClientSettings.resolve("https://d/x", against: "http://h:1") == "https://d/x")
    }

    @Test func errorBody() throws {
        let e = try json(ErrorBody(.wrongPIN, "Wrong PIN", attemptsLeft: 2))
        #expect(e["error"] as? String == "wrong_pin" && e["attemptsLeft"] as? Int == 2)
        let plain = try json(ErrorBody(.badRequest, "bad"))
        #expect(Set(plain.keys) == ["error", "message"])
        #expect(ErrorCode.blocked.httpStatus == 410)
        #expect(ErrorCode.accessCodeExpired.httpStatus == 412)
        let decoded = try JSONDecoder().decode(ErrorBody.self, from: Data(#"{"error":"x","message":"m"}"#.utf8))
        #expect(decoded.code == nil && decoded.error == "x")
    }

    @Test func accessStatusValues() throws {
        let a = try json(AccessResponse(status: .authenticate, userId: "a@b.c", authOTT: "00"))
        #expect(a["status"] as? String == "authenticate")
        // The five statuses of rps-api.md plus this project's `wrong_pin`, `blocked`, `refused`
        // and `denied` (shown live on the page).
        #expect(
            AccessStatus.allCases.map(\.rawValue) == ["new", "wid", "user", "authenticate", "expired", "wrong_pin", "blocked", "refused", "denied"])
    }

    @Test func curveNames() {
        #expect(CurveName(parsing: "BN254CX") == .bn254cx)
        #expect(CurveName(parsing: "BLS381") == .bls12_381)
        #expect(CurveName(parsing: "bls12-381") == .bls12_381)
        #expect(CurveName(parsing: "p256") == nil)
    }

    @Test func identityRoundTrip() throws {
        let id = MPinIdentity(
            issued: "2026-01-01T00:00:00Z", userID: "a@example.com", mobile: 1,
            salt: "00112233445566778899aabbccddeeff")
        let decoded = try #require(MPinIdentity(mpinId: id.mpinId))
        #expect(decoded == id)
        #expect(Hex.decode(id.mpinId) == id.jsonBytes())
        #expect(MPinIdentity(mpinId: "zz") == nil)
        #expect(MPinIdentity(mpinId: Hex.encode(Array("[]".utf8))) == nil)
    }

    @Test func hex() {
        #expect(Hex.encode([0, 15, 255]) == "000fff")
        #expect(Hex.decode("000FfF") == [0, 15, 255])
        #expect(Hex.decode("0") == nil)
        #expect(Hex.decode("0g") == nil)
    }

    @Test func utcDay() {
        #expect(UTCDay.number(unixSeconds: 0) == 0)
        #expect(UTCDay.number(unixSeconds: 86_399) == 0)
        #expect(UTCDay.number(unixSeconds: 86_400) == 1)
        #expect(UTCDay.number(unixSeconds: -1) == -1)
    }
}
