import Testing
import ZKPinWire

@Suite struct ConfirmationCodeTests {
    @Test func base32MatchesRFC4648() {
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(Base32.encode(Array("f".utf8)) == "MY")
        #expect(Base32.encode([]) == "")
    }

    @Test func codeFromKnownDigest() throws {
        // Python: base64.b32encode(sha256(b"zkpin-activation" + bytes.fromhex(regOTT)))[:8]
        let regOTT = "00112233445566778899aabbccddeeff"
        let input = try #require(ConfirmationCode.hashInput(regOTT: regOTT))
        #expect(
            input == Array("zkpin-activation".utf8) + [
                0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff
            ])
        let digest = try #require(Hex.decode("d7072f7b7399d98b38d8acbaebf3bcfa85d611261d7e6c738430c45f23b9b928"))
        #expect(ConfirmationCode.code(fromDigest: digest) == "24DS-663T")
        #expect(ConfirmationCode.hashInput(regOTT: "zz") == nil)
    }

    @Test func typedInputIsAcceptedWithOrWithoutDashInAnyCase() {
        #expect(ConfirmationCode.matches("24ds663t", code: "24DS-663T"))
        #expect(ConfirmationCode.matches("24DS-663T", code: "24DS-663T"))
        #expect(ConfirmationCode.matches(" 24ds-663t ", code: "24DS-663T"))
        #expect(!ConfirmationCode.matches("24DS-663U", code: "24DS-663T"))
        #expect(ConfirmationCode.normalize("ab-cd-ef") == "ABCDEF")
    }
}
