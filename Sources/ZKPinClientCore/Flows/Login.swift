import Foundation
import ZKPinProtocol
import ZKPinWire

/// Signing a web page in with an access code (the HTTP API, "Authentication": openapi.yaml and docs/api.md): time permit
/// when the server uses them, pass 1, pass 2 with the access code, authenticate.
public struct Login: Sendable {
    public let connection: RPSConnection
    public let store: any IdentityStore

    public init(connection: RPSConnection, store: any IdentityStore) {
        self.connection = connection
        self.store = store
    }

    /// The stored identities that may sign in to `service` (reached at the payload's URL, or
    /// registered under the URL the server reports for itself).
    public func candidates(service: Service) throws(ClientError) -> [Identity] {
        var found = try store.identities(server: service.base)
        if let reported = service.reportedURL, reported != service.base {
            found += try store.identities(server: reported)
        }
        return found
    }

    /// Picks the identity: `user` when given; else the one that can sign in; else nil when
    /// several can (the caller asks, or reports `ambiguousIdentity`).
    public func choose(among candidates: [Identity], user: String?, server: String) throws(ClientError) -> Identity? {
        if let user {
            let matching = candidates.filter { $0.userId.lowercased() == user.lowercased() }
            guard let identity = matching.first(where: \.canSignIn) ?? matching.first else {
                throw .unknownIdentity(userId: user, server: server)
            }
            guard identity.canSignIn else { throw .notRegistered(userId: identity.userId, state: identity.state, server: identity.server) }
            return identity
        }
        let usable = candidates.filter(\.canSignIn)
        if usable.count == 1 { return usable[0] }
        if usable.isEmpty {
            if let first = candidates.first { throw .notRegistered(userId: first.userId, state: first.state, server: first.server) }
            throw .unknownIdentity(userId: nil, server: server)
        }
        return nil
    }

    /// BLOCKED or REVOKED candidates that kept their token may have been unblocked since
    /// (`zkpin-server admin unblock`). Pass 1 needs no PIN, so the server is asked with one
    /// before any PIN prompt; an identity it answers is REGISTERED again. Returns the
    /// candidates as they are now. The challenge this creates expires unused. With the page's
    /// `accessCode`, a refusal shows on that page too.
    public func recheck(_ candidates: [Identity], service: Service, accessCode: String? = nil) async throws(ClientError) -> [Identity] {
        var reinstated = false
        for identity in candidates where identity.state == .blocked || identity.state == .revoked {
            guard let mpinId = identity.mpinId, identity.token != nil,
                identity.curve == service.curve.rawValue,
                try await serverAnswersPass1(identity: identity, mpinId: mpinId, service: service, accessCode: accessCode)
            else { continue }
            try store.markReinstated(server: identity.server, userId: identity.userId, mpinId: mpinId)
            reinstated = true
        }
        return reinstated ? try self.candidates(service: service) : candidates
    }

    /// Pass 1 alone: U = x·A (and UT) depend on the identity, not on the PIN. True when the
    /// server records a challenge; false when it still refuses the identity (403, 410).
    func serverAnswersPass1(identity: Identity, mpinId: String, service: Service, accessCode: String?) async throws(ClientError) -> Bool {
        guard let id = Hex.decode(mpinId), let token = identity.token.flatMap({ Hex.decode($0) }) else { return false }
        var permit: (date: Int, point: [UInt8])?
        if service.settings.usePermits {
            do { permit = try await timePermit(identity: identity, mpinId: mpinId, service: service) } catch {
                switch error {
                case .blocked, .identityNotAuthorized: return false  // still refused
                default: throw error
                }
            }
        }
        guard
            let state = try? service.curve.suite.clientPass1(
                id: id, token: token, pin: 0,
                timePermit: permit?.point, date: permit?.date ?? 0)
        else { return false }
        defer { state.wipe() }
        let pass1 = try await connection.send(
            .post, service.pass1URL,
            Pass1Request(
                mpinId: mpinId, u: Hex.encode(state.u), ut: state.ut.map { Hex.encode($0) }, wid: accessCode, holder: identity.holder))
        if pass1.isSuccess { return true }
        if [403, 410].contains(pass1.status) { return false }
        throw pass1.unexpected()
    }

    /// How long `/rps/authenticate` may wait for the page to take the login up (rps-api.md).
    static let pageTakeUpSeconds: Int64 = 10

    /// Checks that the access code is live before the PIN is asked, and tells the page it was
    /// scanned (`POST /rps/codeStatus`). A server without that endpoint (404) is not checked.
    /// Returns the display name of the site the code signs in to, when the server says (an
    /// OpenID Connect sign-in: "Wiki"), else nil.
    @discardableResult
    public func checkAccessCode(_ accessCode: String, service: Service) async throws(ClientError) -> String? {
        let answer = try await connection.send(.post, service.codeStatusURL, CodeStatusRequest(wid: accessCode))
        switch answer.status {
        case 200..<300:
            // Control characters are dropped: the name goes to the terminal.
            let raw = (try? answer.decode(CodeStatusResponse.self))?.clientName ?? ""
            let kept = raw.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }
            let name = String(String(String.UnicodeScalarView(kept)).prefix(100))
            return name.isEmpty ? nil : name
        case 404, 405: return nil
        case 412, 410: throw .accessCodeExpired
        default: throw answer.unexpected()
        }
    }

    /// Signs in, and after each wrong PIN asks `nextPIN` (given the attempts left) for another
    /// one and tries again with the same code, which stays valid until it expires; nil from
    /// `nextPIN` ends with the wrong PIN's error. At most `maxInvalidLoginAttempts` tries: the
    /// server blocks the identity at its limit anyway (410).
    public func signIn(
        identity: Identity, service: Service, accessCode: String, pin: PIN,
        nextPIN: (_ attemptsLeft: Int?) throws(ClientError) -> PIN?
    ) async throws(ClientError) -> String {
        var pin = pin
        var tries = 1
        while true {
            do throws(ClientError) {
                return try await signIn(identity: identity, service: service, accessCode: accessCode, pin: pin)
            } catch {
                guard case let .wrongPIN(left) = error, left.map({ $0 > 0 }) ?? true,
                    tries < max(service.settings.maxInvalidLoginAttempts, 1),
                    let next = try nextPIN(left)
                else { throw error }
                pin = next
                tries += 1
            }
        }
    }

    /// Runs the protocol once; returns the user id the server signed in.
    public func signIn(identity: Identity, service: Service, accessCode: String, pin: PIN) async throws(ClientError) -> String {
        let proof = try await prove(identity: identity, service: service, accessCode: accessCode, pin: pin)
        let pass2 = try await connection.send(
            .post, service.pass2URL,
            Pass2Request(
                mpinId: proof.mpinId, v: Hex.encode(proof.v), wid: accessCode,
                challenge: proof.challenge))
        try settleRefusal(pass2, identity: identity, mpinId: proof.mpinId)
        let ott = try pass2.decode(Pass2Response.self)

        let authenticate = try await connection.send(
            .post, service.authenticateURL,
            AuthenticateRequest(authOTT: ott.authOTT),
            serverHoldSeconds: Self.pageTakeUpSeconds)
        try settleRefusal(authenticate, identity: identity, mpinId: proof.mpinId)
        let result = try authenticate.decode(AuthenticateResponse.self)
        // Only a proof-shaped value is kept (64 hex characters).
        let holder = result.holder.flatMap { $0.utf8.count == 64 && Hex.decode($0) != nil ? $0 : nil }
        try store.recordLogin(server: identity.server, userId: identity.userId, holder: holder)
        return result.userId
    }

    /// Asks for a one-time code for a password-only system (pass 2 with `OTP`, docs/api.md):
    /// the same proof as a login, with no access code; a wrong PIN and a block are refused as
    /// at a login. `serviceName` names the system (nil: the server's only one).
    public func oneTimeCode(identity: Identity, service: Service, serviceName: String?, pin: PIN) async throws(ClientError) -> OTPResponse {
        let proof = try await prove(identity: identity, service: service, accessCode: "0", pin: pin)
        let pass2 = try await connection.send(
            .post, service.pass2URL,
            Pass2Request(
                mpinId: proof.mpinId, v: Hex.encode(proof.v), wid: "0", challenge: proof.challenge, otp: true,
                service: serviceName))
        if pass2.status == 400 {
            throw .badInput("The server refused the one-time code request: \(pass2.error?.message ?? "bad request")")
        }
        try settleRefusal(pass2, identity: identity, mpinId: proof.mpinId)
        let answer = try pass2.decode(OTPResponse.self)
        guard !answer.otp.isEmpty, answer.otp.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .unexpectedResponse(url: pass2.url, status: pass2.status, detail: "the one-time code is not digits")
        }
        try store.recordLogin(server: identity.server, userId: identity.userId)
        return answer
    }

    struct Proof {
        var mpinId: String
        var v: [UInt8]
        var challenge: String
    }

    /// Time permit (when the server uses them), pass 1 and the client's pass-2 value.
    func prove(identity: Identity, service: Service, accessCode: String, pin: PIN) async throws(ClientError) -> Proof {
        guard identity.canSignIn, let mpinId = identity.mpinId, let tokenHex = identity.token else {
            throw .notRegistered(userId: identity.userId, state: identity.state, server: identity.server)
        }
        guard let id = Hex.decode(mpinId), let token = Hex.decode(tokenHex) else {
            throw .invalidToken
        }
        guard identity.curve == service.curve.rawValue else {
            throw .badInput(
                "The identity \(identity.userId) was registered on the curve \(identity.curve), but the server now uses \(service.curve.rawValue). Register again with `zkpin register \(identity.userId) --server \(service.base)`."
            )
        }
        let suite = service.curve.suite

        var permit: (date: Int, point: [UInt8])?
        if service.settings.usePermits {
            permit = try await timePermit(identity: identity, mpinId: mpinId, service: service)
        }

        let state: ClientPass1State
        do {
            state = try suite.clientPass1(
                id: id, token: token, pin: pin.value,
                timePermit: permit?.point, date: permit?.date ?? 0)
        } catch {
            // The stored token is not a valid point: damaged, never sent.
            throw .invalidToken
        }
        defer { state.wipe() }

        let pass1 = try await connection.send(
            .post, service.pass1URL,
            Pass1Request(
                mpinId: mpinId, u: Hex.encode(state.u),
                ut: state.ut.map { Hex.encode($0) }, wid: accessCode, holder: identity.holder))
        try settleRefusal(pass1, identity: identity, mpinId: mpinId)
        let challenge = try pass1.decode(Pass1Response.self)
        guard let y = Hex.decode(challenge.y) else {
            throw .unexpectedResponse(url: pass1.url, status: pass1.status, detail: "y is not hex")
        }
        let v: [UInt8]
        do { v = try suite.clientPass2(state, y: y) } catch {
            throw .unexpectedResponse(url: pass1.url, status: pass1.status, detail: "y is not a valid scalar")
        }
        return Proof(mpinId: mpinId, v: v, challenge: challenge.challenge)
    }

    /// Share 1 from the relying party, share 2 from D-TA 2, added; the same date on both.
    func timePermit(identity: Identity, mpinId: String, service: Service) async throws(ClientError) -> (date: Int, point: [UInt8]) {
        // The holder proof keeps strangers behind this address from using up the permit count.
        let first = try await connection.get(
            service.timePermitURL(mpinId: mpinId), headers: identity.holder.map { [("X-ZKPin-Holder", $0)] } ?? [])
        try settleRefusal(first, identity: identity, mpinId: mpinId)
        let share1 = try first.decode(TimePermitResponse.self)
        guard let params = share1.params else {
            throw .unexpectedResponse(url: first.url, status: first.status, detail: "the time permit has no params for D-TA 2")
        }
        let second = try await connection.get(service.dta2URL("timePermit", params: params))
        let share2 = try second.decode(TimePermitResponse.self)
        guard share1.date == share2.date, let a = Hex.decode(share1.timePermit), let b = Hex.decode(share2.timePermit) else {
            throw .unexpectedResponse(url: second.url, status: second.status, detail: "the two time-permit shares do not match")
        }
        do {
            return (share1.date, try service.curve.suite.addG1(a, b))
        } catch {
            throw .unexpectedResponse(url: second.url, status: second.status, detail: "a time-permit share is not a valid point")
        }
    }

    /// Turns a refusal into its client status; a block marks the identity BLOCKED, a
    /// revocation REVOKED (both keep the token, see `IdentityStore.markBlocked`).
    func settleRefusal(_ answer: RPSConnection.Answer, identity: Identity, mpinId: String) throws(ClientError) {
        guard !answer.isSuccess else { return }
        let code = answer.error?.code
        switch (answer.status, code) {
        case (410, _):
            try store.markBlocked(server: identity.server, userId: identity.userId, mpinId: mpinId)
            throw .blocked(userId: identity.userId, server: identity.server)
        case (401, .wrongPIN?):
            throw .wrongPIN(attemptsLeft: answer.error?.attemptsLeft)
        case (401, _):
            throw .invalidToken
        case (412, _):
            throw .accessCodeExpired
        case (408, _):
            throw .authenticationTimeout
        case (403, .noChallenge?):
            throw .unexpectedResponse(
                url: answer.url, status: answer.status,
                detail: "the login took too long between its steps; get a new code and try again")
        case (403, _):
            try store.markRevoked(server: identity.server, userId: identity.userId, mpinId: mpinId)
            throw .identityNotAuthorized(userId: identity.userId, server: identity.server)
        default:
            throw answer.unexpected()
        }
    }
}
