import Foundation
import Synchronization
import ZKPinClient
import ZKPinProtocol
import ZKPinWire

/// A small in-memory M-Pin server behind `HTTPTransport`: real crypto (two master shares, the
/// server secret, verification with the PIN error), none of the real server's storage or HTTP.
/// It lets the client's flows and their status mapping be tested without a network; the real
/// `zkpin-server` is exercised by the end-to-end tests.
final class FakeMPinServer: HTTPTransport, Sendable {
    struct State {
        var activated: Set<String> = []
        var pending: [String: String] = [:]  // mpinId -> regOTT
        var challenges: [String: (u: [UInt8], ut: [UInt8]?, y: [UInt8], date: Int)] = [:]
        var verdicts: [String: (mpinId: String, result: ServerVerification)] = [:]  // authOTT -> verdict
        var attemptsLeft: [String: Int] = [:]
        var blocked: Set<String> = []
        var accessCodes: Set<String> = []
        var requests: [String] = []
        /// The `holder` of each pass 1, in order (nil when the client sent none).
        var pass1Holders: [String?] = []
    }

    let base: String
    let usePermits: Bool
    let reportedURL: String
    let suite = CurveID.bls12_381.suite
    let master1: [UInt8], master2: [UInt8]
    let serverSecret: PreparedServerSecret
    let state = Mutex(State())
    let today = UTCDay.number(unixSeconds: Int(Date().timeIntervalSince1970))

    init(base: String = "http://fake.test", usePermits: Bool = false, reportedURL: String? = nil) throws {
        self.base = base
        self.usePermits = usePermits
        self.reportedURL = reportedURL ?? base
        master1 = suite.randomScalar()
        master2 = suite.randomScalar()
        let ss = try suite.addG2(try suite.serverSecretShare(master: master1), try suite.serverSecretShare(master: master2))
        serverSecret = try suite.prepareServerSecret(ss)
    }

    func activateAll() { state.withLock { $0.activated.formUnion($0.pending.keys) } }
    func issueAccessCode(_ code: String) { state.withLock { _ = $0.accessCodes.insert(code) } }
    /// The operator revokes `mpinId`: pass 1 answers 403 from now on.
    func revoke(mpinId: String) { state.withLock { _ = $0.pending.removeValue(forKey: mpinId) } }
    var requests: [String] { state.withLock { $0.requests } }
    var pass1Holders: [String?] { state.withLock { $0.pass1Holders } }
    /// The fake's holder proof of an identity (the real server's is an HMAC; any 64 hex do).
    static func holder(_ mpinId: String) -> String { Hex.encode(Digest.sha256(Array(("holder" + mpinId).utf8))) }

    func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, headers: [])
    }

    func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, headers: [(String, String)]) async throws(ClientError) -> HTTPResult {
        guard url.hasPrefix(base) else { throw .networkError(url: url, reason: "connection refused") }
        let rest = String(url.dropFirst(base.count))
        let path = String(rest.split(separator: "?", maxSplits: 1).first ?? "")
        let query = rest.contains("?") ? String(rest.split(separator: "?", maxSplits: 1)[1]) : ""
        state.withLock { $0.requests.append("\(verb.rawValue) \(path)") }
        do {
            return try route(verb, path, query, body.map { Data($0) } ?? Data(), headers: headers)
        } catch {
            return reply(400, ErrorBody(.badRequest, "\(error)"))
        }
    }

    private func reply(_ status: Int, _ value: some Encodable) -> HTTPResult {
        HTTPResult(status: status, body: Array((try? JSONEncoder().encode(value)) ?? Data()))
    }

    private func parameter(_ name: String, _ query: String) -> String? {
        for pair in query.split(separator: "&") where pair.hasPrefix(name + "=") {
            return String(pair.dropFirst(name.count + 1))
        }
        return nil
    }

    private func route(_ verb: HTTPVerb, _ path: String, _ query: String, _ body: Data, headers: [(String, String)]) throws -> HTTPResult {
        let decoder = JSONDecoder()
        switch (verb, path) {
        case (.get, "/service"):
            return reply(200, ServiceInfo(name: "Fake Bank", url: reportedURL, logoURL: ""))
        case (.get, "/rps/clientSettings"):
            return reply(
                200,
                ClientSettings(
                    signatureURL: "/rps/signature", registerURL: "/rps/user",
                    timePermitsURL: "/rps/timePermit", mpinAuthServerURL: "/rps",
                    mobileAuthenticateURL: "/rps/authenticate", curve: "BLS381",
                    usePermits: usePermits, maxInvalidLoginAttempts: 3, dta2URL: "/dta2"))
        case (.put, "/rps/user"):
            let request = try decoder.decode(RegisterRequest.self, from: body)
            let identity = MPinIdentity(
                issued: "2030-01-01T00:00:00Z", userID: request.userId, mobile: 0,
                salt: Hex.encode(Digest.randomBytes(16)))
            let regOTT = Hex.encode(Digest.randomBytes(16))
            state.withLock {
                $0.pending[identity.mpinId] = regOTT; $0.attemptsLeft[identity.mpinId] = 3
            }
            return reply(
                200,
                RegisterResponse(
                    mpinId: identity.mpinId, regOTT: regOTT,
                    expireTime: "2030-01-01T01:00:00Z", nowTime: "2030-01-01T00:00:00Z"))
        case (.get, _) where path.hasPrefix("/rps/signature/"):
            let mpinId = String(path.dropFirst("/rps/signature/".count))
            let (expected, active) = state.withLock { ($0.pending[mpinId], $0.activated.contains(mpinId)) }
            // The regOTT comes in its header only: never in the URL.
            let sent = headers.first { $0.0.lowercased() == "x-zkpin-regott" }?.1
            guard let expected, parameter("regOTT", query) == nil, sent == expected else {
                return reply(400, ErrorBody(.invalidRegOTT, "wrong regOTT"))
            }
            guard active else { return reply(401, ErrorBody(.notActivated, "not activated")) }
            let share = try suite.clientSecretShare(master: master1, id: Hex.decode(mpinId)!)
            return reply(200, SignatureResponse(clientSecretShare: Hex.encode(share), params: "id=" + mpinId))
        case (.get, "/dta2/clientSecret"):
            let mpinId = parameter("id", query) ?? ""
            let share = try suite.clientSecretShare(master: master2, id: Hex.decode(mpinId) ?? [])
            return reply(200, ClientSecretResponse(clientSecret: Hex.encode(share)))
        case (.get, _) where path.hasPrefix("/rps/timePermit/"):
            let mpinId = String(path.dropFirst("/rps/timePermit/".count))
            let share = try suite.timePermitShare(master: master1, id: Hex.decode(mpinId)!, date: today)
            return reply(200, TimePermitResponse(date: today, timePermit: Hex.encode(share), params: "id=" + mpinId))
        case (.get, "/dta2/timePermit"):
            let share = try suite.timePermitShare(master: master2, id: Hex.decode(parameter("id", query) ?? "") ?? [], date: today)
            return reply(200, TimePermitResponse(date: today, timePermit: Hex.encode(share)))
        case (.post, "/rps/pass1"):
            let request = try decoder.decode(Pass1Request.self, from: body)
            state.withLock { $0.pass1Holders.append(request.holder) }
            if state.withLock({ $0.blocked.contains(request.mpinId) }) { return reply(410, ErrorBody(.blocked, "blocked")) }
            guard state.withLock({ $0.pending[request.mpinId] != nil }) else {
                return reply(403, ErrorBody(.identityNotAuthorized, "unknown"))
            }
            let y = suite.randomScalar()
            let challenge = Hex.encode(Digest.randomBytes(8))
            state.withLock {
                $0.challenges[challenge] = (
                    Hex.decode(request.u)!, request.ut.flatMap { Hex.decode($0) }, y,
                    usePermits ? today : 0
                )
            }
            return reply(200, Pass1Response(y: Hex.encode(y), challenge: challenge))
        case (.post, "/rps/pass2"):
            let request = try decoder.decode(Pass2Request.self, from: body)
            // "0": a login without an access code (rps-api.md), as a change of PIN makes.
            guard request.wid == "0" || state.withLock({ $0.accessCodes.remove(request.wid) != nil }) else {
                return reply(412, ErrorBody(.accessCodeExpired, "expired"))
            }
            guard let challenge = state.withLock({ $0.challenges.removeValue(forKey: request.challenge ?? "") }) else {
                return reply(403, ErrorBody(.noChallenge, "no challenge"))
            }
            let verdict = suite.serverVerify(
                id: Hex.decode(request.mpinId)!, date: challenge.date,
                serverSecret: serverSecret, u: challenge.u, ut: challenge.ut,
                v: Hex.decode(request.v) ?? [], y: challenge.y)
            let authOTT = Hex.encode(Digest.randomBytes(16))
            state.withLock { $0.verdicts[authOTT] = (request.mpinId, verdict) }
            return reply(200, Pass2Response(authOTT: authOTT))
        case (.post, "/rps/authenticate"):
            let request = try decoder.decode(AuthenticateRequest.self, from: body)
            guard let (mpinId, verdict) = state.withLock({ $0.verdicts.removeValue(forKey: request.mpinResponse.authOTT) }) else {
                return reply(401, ErrorBody(.invalidToken, "unknown authOTT"))
            }
            if verdict.accepted {
                state.withLock { $0.attemptsLeft[mpinId] = 3 }
                return reply(200, AuthenticateResponse(userId: MPinIdentity(mpinId: mpinId)?.userID ?? "?", holder: Self.holder(mpinId)))
            }
            guard verdict.pinError != 0 else { return reply(401, ErrorBody(.invalidToken, "not a token")) }
            let left = state.withLock { s -> Int in
                let left = (s.attemptsLeft[mpinId] ?? 3) - 1
                s.attemptsLeft[mpinId] = left
                if left <= 0 { s.blocked.insert(mpinId) }
                return left
            }
            if left <= 0 { return reply(410, ErrorBody(.blocked, "blocked")) }
            return reply(401, ErrorBody(.wrongPIN, "wrong PIN", attemptsLeft: left))
        default:
            return reply(404, ErrorBody(.notFound, "no route \(path)"))
        }
    }
}

/// Answers every request with one fixed status and body (or a network failure).
struct FixedTransport: HTTPTransport {
    var status: Int
    var body: String
    var failure: ClientError?

    func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?) async throws(ClientError) -> HTTPResult {
        try await send(verb, url, json: body, headers: [])
    }

    func send(_ verb: HTTPVerb, _ url: String, json body: [UInt8]?, headers: [(String, String)]) async throws(ClientError) -> HTTPResult {
        if let failure { throw failure }
        return HTTPResult(status: status, body: Array(self.body.utf8))
    }
}
