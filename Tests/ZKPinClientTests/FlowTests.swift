import Foundation
import Testing
import ZKPinClient
import ZKPinWire

/// Registration and login against `FakeMPinServer`: the real crypto and the client's status
/// mapping, without a network.
@Suite struct FlowTests {
    struct Setup {
        let folder = TemporaryFolder()
        let server: FakeMPinServer
        let store: SQLiteIdentityStore
        let connection: RPSConnection

        init(usePermits: Bool = false, reportedURL: String? = nil) throws {
            server = try FakeMPinServer(usePermits: usePermits, reportedURL: reportedURL)
            store = try SQLiteIdentityStore(home: folder.path)
            connection = RPSConnection(transport: server)
        }

        func register(_ email: String = "alice@example.com", pin: String = "1234") async throws -> (Service, Identity) {
            let service = try await Discovery(connection: connection).discover(server: server.base)
            let registration = Registration(connection: connection, store: store)
            let started = try await registration.start(email: email, deviceName: "test", service: service)
            #expect(try await isWaiting(registration.poll(identity: started.identity, service: service)))
            server.activateAll()
            let activation = try await registration.waitForActivation(
                identity: started.identity, service: service,
                timeoutSeconds: 5, interval: .milliseconds(10))
            let stored = try registration.finish(
                identity: started.identity, service: service,
                clientSecret: activation.clientSecret, pin: try PIN(parsing: pin), holder: activation.holder)
            return (service, stored)
        }

        func login(_ identity: Identity, service: Service, pin: String, code: String = "1234560") async throws -> String {
            server.issueAccessCode(code)
            return try await Login(connection: connection, store: store)
                .signIn(identity: identity, service: service, accessCode: code, pin: try PIN(parsing: pin))
        }
    }

    static func isWaiting(_ poll: Registration.Poll) -> Bool {
        if case .waiting = poll { return true }
        return false
    }

    @Test(arguments: [false, true])
    func registersAndSignsInWithTheRightPIN(usePermits: Bool) async throws {
        let setup = try Setup(usePermits: usePermits)
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        #expect(service.info.name == "Fake Bank")
        #expect(service.curve == .bls12_381)
        #expect(identity.state == .registered)
        #expect(identity.token != nil && identity.pendingRegOTT == nil)
        #expect(try await setup.login(identity, service: service, pin: "1234") == "alice@example.com")
        #expect(try setup.store.find(userId: "alice@example.com", server: setup.server.base)?.lastLoginAt != nil)
        #expect(setup.server.requests.contains("GET /rps/timePermit/" + identity.mpinId!) == usePermits)
    }

    /// Issue 29, finding 1: the holder proof of a verified login is kept and sent with every
    /// later pass 1, so that strangers behind the same address cannot use up the owner's logins.
    @Test func theHolderProofOfALoginGoesWithTheNextPass1() async throws {
        let setup = try Setup(usePermits: false)
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        #expect(try await setup.login(identity, service: service, pin: "1234") == "alice@example.com")
        let stored = try #require(try setup.store.find(userId: "alice@example.com", server: setup.server.base))
        #expect(stored.holder == FakeMPinServer.holder(identity.mpinId!))
        #expect(try await setup.login(stored, service: service, pin: "1234") == "alice@example.com")
        #expect(setup.server.pass1Holders == [nil, FakeMPinServer.holder(identity.mpinId!)])
    }

    @Test func threeWrongPINsBlockAndKeepTheTokenForAnUnblock() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        for expected in [2, 1] {
            await #expect(throws: ClientError.wrongPIN(attemptsLeft: expected)) {
                try await setup.login(identity, service: service, pin: "4321")
            }
            #expect(try setup.store.find(userId: identity.userId, server: identity.server)?.token != nil)
        }
        await #expect(throws: ClientError.blocked(userId: "alice@example.com", server: identity.server)) {
            try await setup.login(identity, service: service, pin: "4321")
        }
        let blocked = try #require(try setup.store.find(userId: identity.userId, server: identity.server))
        #expect(blocked.state == .blocked && blocked.token != nil)
        await #expect(throws: ClientError.notRegistered(userId: "alice@example.com", state: .blocked, server: identity.server)) {
            try await setup.login(blocked, service: service, pin: "1234")
        }
    }

    @Test func aWrongPINIsAskedAgainWithTheSameCode() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        setup.server.issueAccessCode("1234560")
        var asked: [Int?] = []
        let userId = try await Login(connection: setup.connection, store: setup.store)
            .signIn(identity: identity, service: service, accessCode: "1234560", pin: try PIN(parsing: "4321")) { left throws(ClientError) in
                asked.append(left)
                // The fake server takes a code at pass 2; the real one keeps it after a wrong PIN.
                setup.server.issueAccessCode("1234560")
                return try PIN(parsing: asked.count == 1 ? "1111" : "1234")
            }
        #expect(userId == "alice@example.com")
        #expect(asked == [2, 1])
    }

    @Test func askingAgainStopsAtTheBlockAndWhenNoPINComes() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        let login = Login(connection: setup.connection, store: setup.store)
        setup.server.issueAccessCode("1234560")
        await #expect(throws: ClientError.wrongPIN(attemptsLeft: 2)) {
            try await login.signIn(
                identity: identity, service: service, accessCode: "1234560",
                pin: try PIN(parsing: "4321")
            ) { _ throws(ClientError) in nil }
        }
        var asked = 0
        setup.server.issueAccessCode("1234560")
        do throws(ClientError) {
            _ = try await login.signIn(
                identity: identity, service: service, accessCode: "1234560",
                pin: try PIN(parsing: "4321")
            ) { _ throws(ClientError) in
                asked += 1
                setup.server.issueAccessCode("1234560")
                return try PIN(parsing: "4321")
            }
            Issue.record("a third wrong PIN signed in")
        } catch {
            #expect(error == .blocked(userId: "alice@example.com", server: identity.server))
        }
        #expect(asked == 1)
        #expect(try setup.store.find(userId: identity.userId, server: identity.server)?.state == .blocked)
    }

    @Test func aRevokedIdentityIsMarkedAndAsksForNoPINAfterwards() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        setup.server.revoke(mpinId: identity.mpinId!)
        await #expect(throws: ClientError.identityNotAuthorized(userId: "alice@example.com", server: identity.server)) {
            try await setup.login(identity, service: service, pin: "1234")
        }
        let stored = try #require(try setup.store.find(userId: identity.userId, server: identity.server))
        #expect(stored.state == .revoked && !stored.canSignIn)
        let login = Login(connection: setup.connection, store: setup.store)
        #expect(throws: ClientError.notRegistered(userId: "alice@example.com", state: .revoked, server: identity.server)) {
            _ = try login.choose(among: try login.candidates(service: service), user: nil, server: service.base)
        }
        #expect(ClientError.notRegistered(userId: "a@b.c", state: .revoked).status == .identityNotAuthorized)
    }

    @Test func changingThePINNeedsTheOldOneAndThenOnlyTheNewOneWorks() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register(pin: "1234")
        let change = PINChange(connection: setup.connection, store: setup.store)
        // A wrong current PIN is change-pin's own error, not the login's "the same code".
        await #expect(throws: ClientError.wrongCurrentPIN(attemptsLeft: 2)) {
            try await change.change(identity: identity, service: service, old: try PIN(parsing: "1235"), new: try PIN(parsing: "8642"))
        }
        #expect(try setup.store.find(userId: identity.userId, server: identity.server)?.token == identity.token)
        let changed = try await change.change(identity: identity, service: service, old: try PIN(parsing: "1234"), new: try PIN(parsing: "8642"))
        #expect(changed.token != identity.token && changed.mpinId == identity.mpinId)
        #expect(try await setup.login(changed, service: service, pin: "8642") == "alice@example.com")
        await #expect(throws: ClientError.wrongPIN(attemptsLeft: 2)) {
            try await setup.login(changed, service: service, pin: "1234")
        }
    }

    @Test func aForgedTokenIsInvalidAndBlocksNobody() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        var forged = identity
        forged.token = Hex.encode(
            try service.curve.suite.clientSecretShare(
                master: service.curve.suite.randomScalar(),
                id: Array("x".utf8)))
        for _ in 0..<4 {
            await #expect(throws: ClientError.invalidToken) { try await setup.login(forged, service: service, pin: "1234") }
        }
        #expect(try await setup.login(identity, service: service, pin: "1234") == "alice@example.com")
    }

    @Test func anUnknownAccessCodeIsRefused() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let (service, identity) = try await setup.register()
        await #expect(throws: ClientError.accessCodeExpired) {
            try await Login(connection: setup.connection, store: setup.store)
                .signIn(identity: identity, service: service, accessCode: "3141594", pin: try PIN(parsing: "1234"))
        }
        #expect(try setup.store.find(userId: identity.userId, server: identity.server)?.canSignIn == true)
    }

    @Test func waitingEndsWithNotActivated() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        let service = try await Discovery(connection: setup.connection).discover(server: setup.server.base)
        let registration = Registration(connection: setup.connection, store: setup.store)
        let started = try await registration.start(email: "bob@example.com", deviceName: nil, service: service)
        #expect(started.confirmationCode == ConfirmationCode.code(regOTT: started.identity.pendingRegOTT!))
        await #expect(throws: ClientError.notActivated(userId: "bob@example.com", waitedSeconds: 1)) {
            try await registration.waitForActivation(
                identity: started.identity, service: service,
                timeoutSeconds: 1, interval: .milliseconds(100))
        }
        // Still pending, so `zkpin confirm` can finish it.
        #expect(try setup.store.find(userId: "bob@example.com", server: setup.server.base)?.hasPendingRegistration == true)
        var wrong = started.identity
        wrong.pendingRegOTT = "00"
        await #expect(throws: ClientError.registrationExpired(userId: "bob@example.com", server: setup.server.base)) {
            try await registration.poll(identity: wrong, service: service)
        }
    }

    @Test func choosesTheIdentityOrAsksForOne() async throws {
        let setup = try Setup(reportedURL: "http://public.example")
        defer { setup.folder.remove() }
        let (service, alice) = try await setup.register("alice@example.com")
        let login = Login(connection: setup.connection, store: setup.store)
        #expect(try login.choose(among: login.candidates(service: service), user: nil, server: service.base) == alice)
        _ = try await setup.register("bob@example.com")
        let both = try login.candidates(service: service)
        #expect(try login.choose(among: both, user: nil, server: service.base) == nil)
        #expect(try login.choose(among: both, user: "BOB@example.com", server: service.base)?.userId == "bob@example.com")
        #expect(throws: ClientError.unknownIdentity(userId: "carol@example.com", server: service.base)) {
            try login.choose(among: both, user: "carol@example.com", server: service.base)
        }
        #expect(service.hostMismatch?.reached == "fake.test")
        #expect(service.hostMismatch?.reported == "public.example")
    }

    @Test func discoveryRefusesWhatIsNotAnMPinServer() async {
        let page = RPSConnection(transport: FixedTransport(status: 200, body: "<html>hello</html>"))
        await #expect(throws: ClientError.notMPinServer(url: "http://h/service", reason: "its answer is not the JSON a ServiceInfo needs")) {
            try await Discovery(connection: page).discover(server: "http://h")
        }
        let missing = RPSConnection(transport: FixedTransport(status: 404, body: ""))
        do {
            _ = try await Discovery(connection: missing).discover(server: "http://h")
            Issue.record("a 404 was taken for a service")
        } catch {
            #expect(error.exitCode == 3)
        }
        let down = RPSConnection(
            transport: FixedTransport(
                status: 0, body: "",
                failure: .networkError(url: "http://h/service", reason: "refused")))
        await #expect(throws: ClientError.networkError(url: "http://h/service", reason: "refused")) {
            try await Discovery(connection: down).discover(server: "http://h")
        }
    }
}
