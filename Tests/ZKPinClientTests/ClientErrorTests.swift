import Testing

@testable import ZKPinClient
@testable import ZKPinClientCore

@Suite struct ClientErrorTests {
    /// The exit-code contract of issue 5: 1 refused, 2 bad input, 3 network or server.
    @Test func exitCodesFollowTheContract() {
        let refused: [ClientError] = [
            .wrongPIN(attemptsLeft: 2), .invalidToken, .blocked(userId: "a@b.c"),
            .accessCodeExpired, .identityNotAuthorized(userId: "a@b.c"),
            .notActivated(userId: "a@b.c", waitedSeconds: 5), .authenticationTimeout
        ]
        let badInput: [ClientError] = [
            .missingAccessCode(payload: "x"), .invalidAccessCode(code: "1", reason: "r"),
            .malformedURL("x"), .invalidPIN(reason: "r"),
            .unknownIdentity(userId: "a@b.c", server: nil),
            .unreadableImage(path: "p", reason: "r"),
            .hostMismatch(payloadHost: "a", serviceHost: "b")
        ]
        let trouble: [ClientError] = [
            .networkError(url: "u", reason: "r"), .timeout(url: "u"),
            .notMPinServer(url: "u", reason: "r"),
            .unexpectedResponse(url: "u", status: 500, detail: "d"), .rateLimited(url: "u", detail: "d")
        ]
        for error in refused { #expect(error.exitCode == 1, "\(error)") }
        for error in badInput { #expect(error.exitCode == 2, "\(error)") }
        for error in trouble { #expect(error.exitCode == 3, "\(error)") }
    }

    @Test func statusesFollowTheSpec() {
        #expect(ClientError.wrongPIN(attemptsLeft: 1).status == .incorrectPIN)
        #expect(ClientError.blocked(userId: "a").status == .blocked)
        #expect(ClientError.accessCodeExpired.status == .incorrectAccessNumber)
        #expect(ClientError.identityNotAuthorized(userId: "a").status == .identityNotAuthorized)
        #expect(ClientError.networkError(url: "u", reason: "r").status == .networkError)
        #expect(ClientError.authenticationTimeout.status == .authenticationTimeout)
        #expect(ClientError.missingAccessCode(payload: "x").status == .invalidAccessCode)
    }

    @Test func messagesSayWhatToDoNext() {
        #expect(ClientError.wrongPIN(attemptsLeft: 2).message.contains("2 attempts left"))
        #expect(ClientError.wrongPIN(attemptsLeft: 1).message.contains("1 attempt left"))
        #expect(ClientError.blocked(userId: "a@b.c").message.contains("zkpin register a@b.c"))
        // The server the client knows goes into the command it suggests, not a placeholder
        // (issue 28, finding 10).
        let server = "https://login.example.com"
        for error in [
            ClientError.blocked(userId: "a@b.c", server: server), .identityNotAuthorized(userId: "a@b.c", server: server),
            .registrationExpired(userId: "a@b.c", server: server), .notRegistered(userId: "a@b.c", state: .blocked, server: server),
            .notRegistered(userId: "a@b.c", state: .revoked, server: server)
        ] {
            #expect(error.message.contains("zkpin register a@b.c --server \(server)`"), "\(error.message)")
            #expect(!error.message.contains("--server URL"), "\(error.message)")
        }
        #expect(ClientError.notActivated(userId: "a@b.c", waitedSeconds: nil).message.contains("zkpin confirm a@b.c"))
        #expect(ClientError.hostMismatch(payloadHost: "evil", serviceHost: "bank").message.contains("--accept-host"))
    }

    /// Issue 29, finding 9: a 429 during a race of wrong PINs (two logins of one identity at
    /// once) reached the person as a generic refusal with the status UNEXPECTED_RESPONSE; now it
    /// says what the server said, and its own status.
    @Test func aRateLimitSaysTheServersReason() {
        let body = #"{"error":"rate_limited","message":"other logins of this identity are in progress; try again"}"#
        let answer = RPSConnection.Answer(url: "http://rp/rps/pass2", status: 429, body: Array(body.utf8))
        let error = answer.unexpected()
        #expect(error.status == .rateLimited)
        #expect(error.exitCode == 3)
        #expect(error.message.contains("other logins of this identity are in progress"), "\(error.message)")
        #expect(!error.message.contains("unexpected") && !error.message.contains("HTTP 429"), "\(error.message)")
    }
}
