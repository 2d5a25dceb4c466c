import ZKPinProtocol
import ZKPinWire

/// Share 1 of client secrets and time permits (D-TA 1), with the signed queries for share 2.
struct ShareService: Sendable {
    let storage: StorageGateway
    let registrations: RegistrationService
    let dta1: TrustedAuthority
    let dta2Signer: DTA2Signer
    let audit: AuditTrail
    let clock: ServerClock

    /// `GET /rps/signature/<mpinId>?regOTT=`.
    func signature(mpinId: String, regOTT: String?) async throws(APIError) -> SignatureResponse {
        guard let regOTT, !regOTT.isEmpty else { throw APIError(.invalidRegOTT, "regOTT is required") }
        let pending = try await registrations.livePending(mpinId: mpinId, regOTT: regOTT)
        guard pending.activated != nil else { throw APIError(.notActivated, "not activated yet: open the link in the mail and type the confirmation code") }
        let identity = try await storage("read identity") { try await $0.identity(mpinId: mpinId) }
        guard let identity, identity.state != .revoked else { throw APIError(.identityNotAuthorized, "this identity is revoked") }
        let id = try MPinIDText.bytes(mpinId)
        let share: [UInt8]
        do { share = try dta1.clientSecretShare(id: id) } catch { throw APIError.bad("cannot issue a share for this identity") }
        let params = dta2Signer.query(kind: "clientSecret", hashedID: hashedID(id), date: nil, now: clock.now)
        await audit.record("client_secret", userId: pending.userId, mpinId: mpinId)
        return SignatureResponse(clientSecretShare: Hex.encode(share), params: params)
    }

    /// `GET /rps/timePermit/<mpinId>`: today's share 1 and the signed query for share 2.
    func timePermit(mpinId: String) async throws(APIError) -> TimePermitResponse {
        let id = try MPinIDText.bytes(mpinId)
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
