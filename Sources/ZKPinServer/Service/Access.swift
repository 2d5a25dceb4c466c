import ZKPinProtocol
import ZKPinWire

/// A signed-in browser, as the `/account` page shows it.
public struct AccountView: Sendable, Equatable {
    public var userId: String
    public var device: String
    public var lastLogin: Int?
}

extension RelyingParty {
    /// `POST /rps/getAccessNumber`: a fresh code bound to a fresh webOTT.
    public func accessNumber() async throws(APIError) -> AccessNumberResponse {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let code = AccessCode.generate { Int.random(in: 0...9, using: &generator) }
            let webOTT = Tokens.fresh()
            let created = now
            let session = AccessSession(webOTTHash: Tokens.hash(webOTT), code: code, created: created,
                                        expires: created + config.accessCodeTTL)
            let inserted: Bool
            do { inserted = try await store.insertAccessSession(session) } catch { throw APIError(.internalError, "storage failed") }
            if inserted {
                return AccessNumberResponse(accessNumber: code, webOTT: webOTT, ttlSeconds: config.accessCodeTTL,
                                            qrUrl: "\(config.publicURL)/#\(code)")
            }
        }
        throw APIError(.unavailable, "no free access code; try again")
    }

    /// The token the page posts to `/session`: bound to webOTT and to the login that
    /// signed it in, so the server never stores it.
    func pageToken(webOTT: String, authOTTHash: String) -> String {
        Tokens.hmac(key: linkKey, "page\n\(webOTT)\n\(authOTTHash)")
    }

    /// `POST /rps/access`: the page's status, as the server saw it.
    public func access(_ request: AccessRequest) async throws(APIError) -> AccessResponse {
        let found: AccessSession?
        do { found = try await store.accessSession(webOTTHash: Tokens.hash(request.webOTT)) } catch { throw APIError(.internalError, "storage failed") }
        guard let session = found else { throw APIError(.notFound, "unknown webOTT") }
        switch session.status {
        case .authenticate:
            try? await store.markTakenUp(webOTTHash: session.webOTTHash)
            return AccessResponse(status: .authenticate, userId: session.userId,
                                  authOTT: pageToken(webOTT: request.webOTT, authOTTHash: session.authOTTHash ?? ""))
        case .used:
            return AccessResponse(status: .expired)
        case _ where session.expires <= now:
            return AccessResponse(status: .expired)
        case .new: return AccessResponse(status: .new)
        case .wid: return AccessResponse(status: .wid)
        case .wrongPIN: return AccessResponse(status: .wrongPIN)
        case .user: return AccessResponse(status: .user, userId: session.userId)
        }
    }

    /// `POST /rps/codeStatus`.
    public func codeStatus(_ request: CodeStatusRequest, address: String) async throws(APIError) {
        guard request.status == "wid" else { throw APIError.bad("status must be \"wid\"") }
        try await presentAccessCode(request.wid, address: address)
    }

    /// `POST /session`: consumes webOTT and the page token; returns the cookie value.
    public func openSession(_ request: SessionRequest) async throws(APIError) -> String {
        let hash = Tokens.hash(request.webOTT)
        let found = try? await store.accessSession(webOTTHash: hash)
        guard let session = found, session.status == .authenticate, let authHash = session.authOTTHash,
              Tokens.equal(pageToken(webOTT: request.webOTT, authOTTHash: authHash), request.authOTT.lowercased())
        else { throw APIError(.forbidden, "unknown or used login") }
        let consumed = (try? await store.consumeAccessSession(webOTTHash: hash, now: now, window: config.accessCodeTTL + 60)) ?? nil
        guard let taken = consumed, let mpinId = taken.mpinId, let userId = taken.userId
        else { throw APIError(.forbidden, "this login was used already or expired") }
        let cookie = Tokens.fresh()
        do {
            try await store.insertWebSession(WebSession(hash: Tokens.hash(cookie), mpinId: mpinId, userId: userId,
                                                        created: now, expires: now + config.sessionTTL))
        } catch { throw APIError(.internalError, "storage failed") }
        await audit("session", userId: userId, mpinId: mpinId)
        return cookie
    }

    /// The account of a session cookie, nil when there is none.
    public func account(cookie: String?) async -> AccountView? {
        guard let cookie, let session = try? await store.webSession(hash: Tokens.hash(cookie), now: now) else { return nil }
        let identity = try? await store.identity(mpinId: session.mpinId)
        return AccountView(userId: session.userId, device: identity?.device ?? "", lastLogin: identity?.lastLogin)
    }

    /// `POST /logout`.
    public func closeSession(cookie: String?) async {
        guard let cookie else { return }
        try? await store.deleteWebSession(hash: Tokens.hash(cookie))
    }
}
