import ZKPinProtocol
import ZKPinWire

/// Share 1 of client secrets and time permits (D-TA 1), with the signed queries for share 2.
struct ShareService: Sendable {
    /// The header that carries the regOTT (never the URL, which proxies log).
    static let regOTTHeader = "X-ZKPin-RegOTT"
    /// The header that carries the identity's holder proof (`LinkSigner.holderProof`).
    static let holderHeader = "X-ZKPin-Holder"
    let config: ServerConfig
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let registrations: RegistrationService
    let dta1: TrustedAuthority
    let dta2Signer: DTA2Signer
    let audit: AuditTrail
    let clock: ServerClock
    /// The holder proofs (`LinkSigner.holderProof`).
    let links: LinkSigner

    /// `GET /rps/signature/<mpinId>` with the regOTT in the `X-ZKPin-RegOTT` header (the
    /// `?regOTT=` query of rps-api.md is still read, for older clients). Share 1 is served only
    /// within `shareWindow` seconds of the activation.
    func signature(mpinId: String, regOTT: String?) async throws(APIError) -> SignatureResponse {
        guard let regOTT, !regOTT.isEmpty else { throw APIError(.invalidRegOTT, "regOTT is required (header \(Self.regOTTHeader))") }
        let pending = try await registrations.livePending(mpinId: mpinId, regOTT: regOTT)
        guard let activated = pending.activated else {
            throw APIError(.notActivated, "not activated yet: open the link in the mail and type the confirmation code")
        }
        guard clock.now < activated + config.shareWindow else {
            throw APIError(.invalidRegOTT, "share 1 is served only within \(config.shareWindow / 60) minutes of the activation; register again")
        }
        let identity = try await storage("read identity") { try await $0.identity(mpinId: mpinId) }
        guard let identity, identity.state != .revoked else { throw APIError(.identityNotAuthorized, "this identity is revoked") }
        let id = try MPinIDText.bytes(mpinId)
        let share: [UInt8]
        do { share = try dta1.clientSecretShare(id: id) } catch { throw APIError.bad("cannot issue a share for this identity") }
        let params = dta2Signer.query(kind: "clientSecret", hashedID: hashedID(id), date: nil, now: clock.now)
        await audit.record("client_secret", userId: pending.userId, mpinId: mpinId)
        return SignatureResponse(clientSecretShare: Hex.encode(share), params: params, holder: links.holderProof(mpinId: mpinId))
    }

    /// `GET /rps/timePermit/<mpinId>`: today's share 1 and the signed query for share 2, limited
    /// per identity and client address (a stranger's requests use up only their own address's
    /// count). With the identity's holder proof (`holder`, the `X-ZKPin-Holder` header) they are
    /// counted per identity instead, so that a stranger behind the same address cannot use up the
    /// holder's count (docs/limits.md "A shared address").
    func timePermit(mpinId: String, address: String, holder: String? = nil) async throws(APIError) -> TimePermitResponse {
        let id = try MPinIDText.bytes(mpinId)
        let holds = holder.map { Tokens.equal(links.holderProof(mpinId: mpinId), $0.lowercased()) } ?? false
        let key = holds ? "permit-holder:\(mpinId)" : "permit:\(mpinId):\(address)"
        guard try await limiter.hit(key, config.limits.timePermitsPerIdentityAndAddress, now: clock.now)
        else { throw APIError(.rateLimited, "too many time permits asked from this address; try again later") }
        let identity = try await storage("read identity") { try await $0.identity(mpinId: mpinId) }
        guard let identity, identity.state == .active else { throw APIError(.identityNotAuthorized, "unknown, blocked or revoked identity") }
        let now = clock.now
        let date = UTCDay.number(unixSeconds: now)
        let share: [UInt8]
        do { share = try dta1.timePermitShare(id: id, date: date) } catch { throw APIError.bad("cannot issue a permit") }
        let params = dta2Signer.query(kind: "timePermit", hashedID: hashedID(id), date: date, now: now)
        return TimePermitResponse(date: date, timePermit: Hex.encode(share), params: params)
    }

    func hashedID(_ id: [UInt8]) -> String { Hex.encode(dta1.suite.hashID(id)) }
}
