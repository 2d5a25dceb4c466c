import Logging
import ZKPinProtocol
import ZKPinWire

/// D-TA 2: answers only queries the relying party signed, serves time permits only for dates
/// within one day of its own today, logs every issuance and limits issuance per identity.
public final class DTA2Service: Sendable {
    public let authority: TrustedAuthority
    let signer: DTA2Signer
    let clock: ServerClock
    let limiter = RateLimiter()
    let issueRule = RateLimiter.Rule(limit: 30, window: 600)
    let logger: Logger

    public init(authority: TrustedAuthority, key: [UInt8], clock: ServerClock = .system, logger: Logger = Logger(label: "zkpin.dta2")) {
        self.authority = authority
        self.signer = DTA2Signer(key: key)
        self.clock = clock
        self.logger = logger
    }

    public var curve: CurveID { authority.suite.curve }
    /// PFS: the length of HASH_ID(ID).
    var hashIDLength: Int { authority.suite.hashID([0]).count }

    /// `GET clientSecret?hash_mpin_id=&expires=&signature=`: only the hash of the identity.
    public func clientSecret(query: [String: String]) async throws(APIError) -> ClientSecretResponse {
        let (hashedID, hashed) = try await checkIdentity(kind: "clientSecret", query: query, date: nil)
        do {
            let share = try authority.clientSecretShare(hashedID: hashedID)
            logger.info("issued client secret share", metadata: ["hash_mpin_id": "\(hashed)"])
            return ClientSecretResponse(clientSecret: Hex.encode(share))
        } catch { throw APIError.bad("cannot issue a share for this identity") }
    }

    /// `GET timePermit?hash_mpin_id=&date=&expires=&signature=`.
    public func timePermit(query: [String: String]) async throws(APIError) -> TimePermitResponse {
        guard let dateText = query["date"], let date = Int(dateText) else { throw APIError.bad("date is missing") }
        let today = UTCDay.number(unixSeconds: clock.now)
        // A range test, not abs(date - today): the subtraction traps for a date near Int.min.
        guard (today - 1)...(today + 1) ~= date else {
            throw APIError(.forbidden, "D-TA 2 serves permits only for dates within one day of today")
        }
        let (hashedID, hashed) = try await checkIdentity(kind: "timePermit", query: query, date: date)
        do {
            let share = try authority.timePermitShare(hashedID: hashedID, date: date)
            logger.info("issued time permit share", metadata: ["hash_mpin_id": "\(hashed)", "date": "\(date)"])
            return TimePermitResponse(date: date, timePermit: Hex.encode(share))
        } catch { throw APIError.bad("cannot issue a permit for this identity and date") }
    }

    /// `GET serverSecret?expires=&signature=`.
    public func serverSecret(query: [String: String]) throws(APIError) -> ServerSecretResponse {
        guard let expiresText = query["expires"], let expires = Int(expiresText), let sig = query["signature"],
              signer.verify(kind: "serverSecret", hashedID: nil, date: nil, expires: expires, signature: sig, now: clock.now)
        else { throw APIError(.forbidden, "the request is not signed by the relying party, or it expired") }
        do {
            let share = try authority.serverSecretShare()
            logger.info("issued server secret share")
            return ServerSecretResponse(serverSecret: Hex.encode(share))
        } catch { throw APIError(.internalError, "cannot compute the server secret share") }
    }

    private func checkIdentity(kind: String, query: [String: String], date: Int?) async throws(APIError) -> ([UInt8], String) {
        // Only HASH_ID(ID) (PFS bytes, hex): D-TA 2 never sees the mpinId, which holds the e-mail.
        guard let text = query["hash_mpin_id"], text.utf8.count <= 256, let hashedID = Hex.decode(text),
              hashedID.count == hashIDLength
        else { throw APIError.bad("hash_mpin_id is missing or not the hex of an identity hash") }
        guard let expiresText = query["expires"], let expires = Int(expiresText), let sig = query["signature"]
        else { throw APIError.bad("expires and signature are required") }
        let hashed = Hex.encode(hashedID)
        guard signer.verify(kind: kind, hashedID: hashed, date: date, expires: expires, signature: sig, now: clock.now)
        else { throw APIError(.forbidden, "the request is not signed by the relying party, or it expired") }
        guard await limiter.hit(hashed, issueRule, now: clock.now) else { throw APIError(.rateLimited, "too many requests for this identity") }
        return (hashedID, hashed)
    }
}
