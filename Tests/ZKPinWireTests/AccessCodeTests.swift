import Testing
import ZKPinWire

@Suite struct AccessCodeTests {
    @Test func checkDigitFollowsTheWeights() {
        // 1·7+2·6+3·5+4·4+5·3+6·2 = 77 ≡ 0 → c = 0
        #expect(AccessCode.checkDigit([1, 2, 3, 4, 5, 6]) == 0)
        // sum 2 → c = 9
        #expect(AccessCode.checkDigit([0, 0, 0, 0, 0, 1]) == 9)
        // sum 7 → c = 4
        #expect(AccessCode.checkDigit([1, 0, 0, 0, 0, 0]) == 4)
        // sum 12 ≡ 1 → c would be 10: redrawn
        #expect(AccessCode.checkDigit([0, 0, 0, 0, 4, 0]) == nil)
        #expect(AccessCode.checkDigit([1, 2, 3]) == nil)
        #expect(AccessCode.checkDigit([1, 2, 3, 4, 5, 10]) == nil)
    }

    @Test func validation() {
        #expect(AccessCode.isValid("1234560"))
        #expect(AccessCode.isValid("0000019"))
        #expect(!AccessCode.isValid("1234561"))
        #expect(!AccessCode.isValid("123456"))
        #expect(!AccessCode.isValid("12345600"))
        #expect(!AccessCode.isValid("12345a0"))
        #expect(!AccessCode.isValid("１２３４５６０"))
        #expect(!AccessCode.isValid(""))
    }

    @Test func generatedCodesAreValidAndRedrawTen() {
        // A digit source that first yields a draw whose check digit is 10, then 123456.
        var queue = [0, 0, 0, 0, 4, 0, 1, 2, 3, 4, 5, 6]
        let code = AccessCode.generate { queue.removeFirst() }
        #expect(code == "1234560")
        var g = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            #expect(AccessCode.isValid(AccessCode.generate { Int.random(in: 0...9, using: &g) }))
        }
    }

    @Test func payloadSplit() {
        let p = AccessCode.splitPayload("https://example.com/#1234560")
        #expect(p?.url == "https://example.com/")
        #expect(p?.code == "1234560")
        #expect(AccessCode.splitPayload("https://example.com/") == nil)
        #expect(AccessCode.splitPayload("https://example.com/#") == nil)
    }
}
