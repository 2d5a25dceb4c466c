import ZKPinProtocol
import ZKPinWire

extension RelyingParty {
    /// `GET /rps/signature/<mpinId>?regOTT=`: share 1 and the signed query for share 2.
    public func signature(mpinId: String, regOTT: String?) async throws(APIError) -> SignatureResponse {
        guard let regOTT, !regOTT.isEmpty else { throw APIError(.invalidRegOTT, "regOTT is required") }
        let pending = try await livePending(mpinId: mpinId, regOTT: regOTT)
        guard pending.activated != nil else { throw APIError(.notActivated, "not activated yet: open the link in the mail and type the confirmation code") }
        let identity = try? await store.identity(mpinId: mpinId)
        guard let identity, identity.state != .revoked else { throw APIError(.identityNotAuthorized, "this identity is revoked") }
        let id = try idBytes(mpinId)
        let share: [UInt8]
        do { share = try dta1.clientSecretShare(id: id) } catch { throw APIError.bad("cannot issue a share for this identity") }
        let params = dta2Signer.query(kind: "clientSecret", hashedID: hashedID(id), date: nil, now: now)
        await audit("client_secret", userId: pending.userId, mpinId: mpinId)
        return SignatureResponse(clientSecretShare: Hex.encode(share), params: params)
    }

    /// `GET /rps/timePermit/<mpinId>`: share 1 of today's permit and the signed query for share 2.
    public func timePermit(mpinId: String) async throws(APIError) -> TimePermitResponse {
        let id = try idBytes(mpinId)
        let identity = try? await store.identity(mpinId: mpinId)
        guard let identity, identity.state == .active else { throw APIError(.identityNotAuthorized, "unknown, blocked or revoked identity") }
        let date = UTCDay.number(unixSeconds: now)
        let share: [UInt8]
        do { share = try dta1.timePermitShare(id: id, date: date) } catch { throw APIError.bad("cannot issue a permit") }
        let params = dta2Signer.query(kind: "timePermit", hashedID: hashedID(id), date: date, now: now)
        return TimePermitResponse(date: date, timePermit: Hex.encode(share), params: params)
    }
}
