import Testing
import ZKPinWire

/// The rule for text a person approves or reads, and its terminal escaping.
@Suite struct DisplayTextTests {
    @Test func plainTextInAnyScriptPasses() {
        for text in ["Pay 100 EUR to Bob", "Überweisung an Zoë: 12,50 €", "支付 100 元", "Оплата 100 ₽", "ادفع 100", "👍🏽 Deploy v2"] {
            #expect(DisplayText.problem(text) == nil, "\(text)")
            #expect(DisplayText.escaped(text) == text)
        }
    }

    @Test func controlsSeparatorsBidiAndLookAlikesAreRefused() {
        let hostile: [(String, String)] = [
            ("1 EUR\u{1B}[2K\r9999 EUR", "1B"), ("a\nb", "000A"), ("a\u{7F}", "7F"), ("a\u{85}b", "0085"), ("Bob\u{202E}", "202E"),
            ("a\u{2066}b", "2066"), ("a\u{200B}b", "200B"), ("a\u{2028}b", "2028"), ("a\u{2029}b", "2029"), ("a\u{E000}", "E000")
        ]
        for (text, code) in hostile {
            let problem = DisplayText.problem(text)
            #expect(problem?.contains(code) == true, "\(text.unicodeScalars.map(\.value)): \(problem ?? "nil")")
            #expect(!DisplayText.escaped(text).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        }
        // Compatibility forms and decomposed sequences change under NFKC.
        #expect(DisplayText.problem("\u{FB01}ve") != nil)
        #expect(DisplayText.problem("ＡＢＣ") != nil)
        #expect(DisplayText.problem("e\u{301}") != nil)
        #expect(DisplayText.problem("\u{E9}") == nil)
    }

    @Test func escapingWritesEachRefusedCharacterAsItsCode() {
        #expect(DisplayText.escaped("Bob\u{202E}X\u{1B}[31m") == "Bob\\u{202E}X\\u{001B}[31m")
        #expect(DisplayText.escaped("a\u{2028}b") == "a\\u{2028}b")
    }

    @Test func everyStringOfADetailsArrayIsChecked() {
        #expect(DisplayText.problem(inJSON: [["type": "payment", "amount": "1"]] as [Any]) == nil)
        #expect(DisplayText.problem(inJSON: [["type": "payment", "amount": "1\r\n9999"]] as [Any]) != nil)
        #expect(DisplayText.problem(inJSON: [["type": "payment", "x\u{1B}": "1"]] as [Any]) != nil)
        #expect(DisplayText.problem(inJSON: [["type": "payment", "deep": [["a": ["b\u{2029}"]]]]] as [Any]) != nil)
    }
}
