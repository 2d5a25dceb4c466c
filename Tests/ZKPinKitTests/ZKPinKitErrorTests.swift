import Testing
import ZKPinClientCore
import ZKPinWire

@testable import ZKPinKit

/// An app shows ZKPinKit's errors to a person: none may send them to a command line.
@Suite struct ZKPinKitErrorTests {
    /// One error of every case (`caseNumber` makes a new case fail here until it is listed).
    static let samples: [ClientError] =
        [
            .missingAccessCode(payload: "https://example.com/"), .invalidAccessCode(code: "12", reason: "too short"),
            .malformedURL("ftp://x"), .invalidPIN(reason: "not 4 digits"), .pinMismatch, .trivialPIN(reason: "1111"),
            .invalidEmail("bob"), .unknownIdentity(userId: "bob@example.com", server: "https://a.example"),
            .unknownIdentity(userId: nil, server: nil), .ambiguousIdentity(server: "https://a.example", userIds: ["a@x", "b@x"]),
            .unreadableImage(path: "/tmp/qr.png", reason: "no code"), .hostMismatch(payloadHost: "evil.example", serviceHost: "a.example"),
            .storeUnavailable(path: "/tmp/ids.json", reason: "no space"), .badInput("the body is not JSON"),
            .noHolderProof(userId: "bob@example.com", server: "https://a.example"), .wrongPIN(attemptsLeft: 2), .wrongPIN(attemptsLeft: nil),
            .wrongCurrentPIN(attemptsLeft: 1), .invalidToken, .blocked(userId: "bob@example.com", server: "https://a.example"),
            .accessCodeExpired, .identityNotAuthorized(userId: "bob@example.com", server: nil),
            .notActivated(userId: "bob@example.com", waitedSeconds: 60), .registrationExpired(userId: "bob@example.com", server: nil),
            .authenticationTimeout, .cancelled("a newer registration replaced this one"), .refused("the request is gone"),
            .networkError(url: "https://a.example", reason: "connection refused"), .timeout(url: "https://a.example", seconds: 10),
            .notMPinServer(url: "https://a.example", reason: "no /status"),
            .unexpectedResponse(url: "https://a.example", status: 500, detail: "internal error"),
            .rateLimited(url: "https://a.example", detail: nil)
        ] + UserState.allCases.map { .notRegistered(userId: "bob@example.com", state: $0, server: "https://a.example") }

    @Test func everyCaseIsSampled() {
        let sampled = Set(Self.samples.map(Self.caseNumber))
        #expect(sampled == Set(0..<Self.caseCount))
    }

    @Test(arguments: samples)
    func theTextNamesNoCommandOrOption(_ error: ClientError) {
        let text = ZKPinKitError(error).description
        #expect(!text.isEmpty)
        for cliWord in ["zkpin ", "--", "ZKPIN_HOME", "the command", "`"] {
            #expect(!text.contains(cliWord), "\(error): \(text)")
        }
    }

    @Test func aScreenTellsTheCasesApart() {
        #expect(
            ZKPinKitError(.wrongPIN(attemptsLeft: 2)) == .wrongPIN(attemptsLeft: 2, message: ZKPinKitError(.wrongPIN(attemptsLeft: 2)).description))
        #expect(ZKPinKitError(.wrongPIN(attemptsLeft: 1)).description.contains("1 attempt left"))
        #expect(Self.kind(.blocked(userId: "b@x", server: nil)) == "blocked")
        #expect(Self.kind(.notRegistered(userId: "b@x", state: .blocked, server: nil)) == "blocked")
        #expect(Self.kind(.identityNotAuthorized(userId: "b@x", server: nil)) == "revoked")
        #expect(Self.kind(.notRegistered(userId: "b@x", state: .revoked, server: nil)) == "revoked")
        #expect(Self.kind(.accessCodeExpired) == "expiredCode")
        #expect(Self.kind(.timeout(url: "https://a.example", seconds: 3)) == "network")
        #expect(Self.kind(.storeUnavailable(path: "/x", reason: "y")) == "storage")
        #expect(Self.kind(.hostMismatch(payloadHost: "a", serviceHost: "b")) == "invalidInput")
    }

    static func kind(_ error: ClientError) -> String {
        switch ZKPinKitError(error) {
        case .wrongPIN: "wrongPIN"
        case .blocked: "blocked"
        case .revoked: "revoked"
        case .expiredCode: "expiredCode"
        case .registrationExpired: "registrationExpired"
        case .notActivated: "notActivated"
        case .notRegistered: "notRegistered"
        case .invalidInput: "invalidInput"
        case .network: "network"
        case .server: "server"
        case .storage: "storage"
        case .cancelled: "cancelled"
        }
    }

    static let caseCount = 31

    static func caseNumber(_ error: ClientError) -> Int {
        switch error {
        case .missingAccessCode: 0
        case .invalidAccessCode: 1
        case .malformedURL: 2
        case .invalidPIN: 3
        case .pinMismatch: 4
        case .trivialPIN: 5
        case .invalidEmail: 6
        case .unknownIdentity: 7
        case .ambiguousIdentity: 8
        case .unreadableImage: 9
        case .hostMismatch: 10
        case .storeUnavailable: 11
        case .badInput: 12
        case .noHolderProof: 13
        case .wrongPIN: 14
        case .wrongCurrentPIN: 15
        case .invalidToken: 16
        case .blocked: 17
        case .accessCodeExpired: 18
        case .identityNotAuthorized: 19
        case .notActivated: 20
        case .registrationExpired: 21
        case .notRegistered: 22
        case .authenticationTimeout: 23
        case .cancelled: 24
        case .refused: 25
        case .networkError: 26
        case .timeout: 27
        case .notMPinServer: 28
        case .unexpectedResponse: 29
        case .rateLimited: 30
        }
    }
}
