import Testing
import ZKPinClient

/// The PINs a guesser tries first are recognised, and ordinary ones are not.
@Suite struct TrivialPINTests {
    @Test(arguments: ["0000", "1111", "9999", "0123", "1234", "6789", "9876", "3210", "1212", "0101", "6969", "2580", "1122"])
    func isTrivial(text: String) throws {
        #expect(TrivialPIN.reason(try PIN(parsing: text)) != nil, "\(text) is not seen as trivial")
    }

    @Test(arguments: ["2468", "1357", "0042", "4821", "9075", "1235", "8642", "1123", "7890"])
    func isNotTrivial(text: String) throws {
        #expect(TrivialPIN.reason(try PIN(parsing: text)) == nil, "\(text) is seen as trivial")
    }

    @Test func saysWhy() throws {
        #expect(TrivialPIN.reason(try PIN(parsing: "7777")) == "all its digits are the same")
        #expect(TrivialPIN.reason(try PIN(parsing: "2345")) == "its digits count up one by one")
        #expect(TrivialPIN.reason(try PIN(parsing: "5432")) == "its digits count down one by one")
        #expect(TrivialPIN.reason(try PIN(parsing: "4545")) == "it repeats a pair of digits")
        #expect(ClientError.trivialPIN(reason: "x").exitCode == 2)
        #expect(ClientError.trivialPIN(reason: "x").message.contains("--allow-trivial-pin"))
    }
}
