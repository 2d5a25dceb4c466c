import Testing
import ZKPinClient
import ZKPinWire

@Suite struct PayloadTests {
    @Test func acceptsAPayloadAndNormalizesItsURL() throws {
        let payload = try Payload(parsing: "  HTTP://Example.COM:80/#1234560\n")
        #expect(payload.server == "http://example.com")
        #expect(payload.accessCode == "1234560")
        #expect(payload.text == "http://example.com#1234560")
        let withPort = try Payload(parsing: "https://127.0.0.1:8443/login/#3141594")
        #expect(withPort.server == "https://127.0.0.1:8443/login")
    }

    @Test func refusesAPayloadWithoutHash() {
        #expect(throws: ClientError.missingAccessCode(payload: "http://example.com/1234560")) {
            try Payload(parsing: "http://example.com/1234560")
        }
        #expect(throws: ClientError.missingAccessCode(payload: "http://example.com#")) {
            try Payload(parsing: "http://example.com#")
        }
    }

    @Test func refusesAWrongCheckDigit() {
        do {
            _ = try Payload(parsing: "http://example.com#1234561")
            Issue.record("a wrong check digit was accepted")
        } catch {
            guard case .invalidAccessCode(let code, _) = error else { Issue.record("\(error)"); return }
            #expect(code == "1234561")
            #expect(error.exitCode == 2)
            #expect(error.status == .invalidAccessCode)
        }
    }

    @Test(arguments: ["123456", "12345600", "12a4560", "１２３４５６０", "1234 560"])
    func refusesCodesThatAreNotSevenDigits(code: String) {
        #expect(throws: ClientError.self) { try Payload(parsing: "http://example.com#" + code) }
    }

    @Test(arguments: [
        "ftp://example.com#1234560", "example.com#1234560", "http://#1234560",
        "http://user:pw@example.com#1234560"
    ])
    func refusesMalformedURLs(text: String) {
        do {
            _ = try Payload(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            guard case .malformedURL = error else { Issue.record("\(text): \(error)"); return }
            #expect(error.exitCode == 2)
        }
    }

    @Test func everyCodeTheServerWouldDrawPasses() {
        var next = 0
        let digits = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4]
        for _ in 0..<3 {
            let code = AccessCode.generate {
                defer { next += 1 }; return digits[next % digits.count]
            }
            #expect((try? Payload(parsing: "http://h#" + code)) != nil)
        }
    }
}

@Suite struct ConfirmationCodeTests {
    @Test func matchesAnIndependentComputation() {
        // Python: base64.b32encode(sha256(b"zkpin-activation" + bytes.fromhex(r)))[:8]
        #expect(ConfirmationCode.code(regOTT: "00112233445566778899aabbccddeeff") == "24DS-663T")
        #expect(ConfirmationCode.code(regOTT: "not hex") == nil)
    }
}

@Suite struct ServerURLTests {
    @Test func normalizesSpellingsOfOneServer() throws {
        let spellings = ["http://LOCALHOST:8080/", "http://localhost:8080", "  http://localhost:8080/?x=1 "]
        for text in spellings { #expect(try ServerURL.normalize(text) == "http://localhost:8080") }
        #expect(try ServerURL.normalize("https://a.example:443/") == "https://a.example")
        #expect(ServerURL.hostAndPort("http://localhost:8080") == "localhost:8080")
    }
}
