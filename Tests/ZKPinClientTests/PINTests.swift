import Testing
import ZKPinClient

@Suite struct PINTests {
    @Test func acceptsFourDigits() throws {
        #expect(try PIN(parsing: "1234").value == 1234)
        #expect(try PIN(parsing: "0007\n").value == 7)
        #expect(try PIN(parsing: "9999\r\n").value == 9999)
    }

    @Test(arguments: ["", "\n", "123", "12345", "12a4", " 1234", "1234 ", "١٢٣٤", "１２３４", "-123"])
    func refusesEverythingElse(text: String) {
        do {
            _ = try PIN(parsing: text)
            Issue.record("\(text.debugDescription) was accepted as a PIN")
        } catch {
            guard case .invalidPIN = error else { Issue.record("\(error)"); return }
            #expect(error.exitCode == 2)
        }
    }
}

@Suite struct EmailTests {
    @Test func acceptsAddressesAndRefusesTheRest() throws {
        #expect(try Email.validate("alice@example.com") == "alice@example.com")
        for bad in [
            "alice", "alice@", "@example.com", "alice@example", "a b@example.com",
            "alice@example.com\r\nBcc: x@y.z", String(repeating: "a", count: 250) + "@b.cd"
        ] {
            #expect(throws: ClientError.invalidEmail(bad)) { try Email.validate(bad) }
        }
    }
}
