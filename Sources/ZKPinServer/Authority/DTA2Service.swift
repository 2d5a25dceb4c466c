import Logging
import ZKPinProtocol
import ZKPinWire

/// D-TA 2: answers only queries the relying party signed, serves time permits only for dates
/// within one day of its own today, logs every issuance and limits issuance per identity.
///
/// The limits are kept so that a stranger cannot use them up for the holder (docs/limits.md):
/// client-secret shares and time permits count separately, and the relying party signs a
/// client-secret query only for the holder of an activated registration's regOTT; a time permit
/// for an identity and day is computed once and then answered again without counting (a permit
/// is of no use without the client secret), so anyone's repeats never reach the limit; and one
/// signed query answers at most `repliesPerQuery` times, so a query seen in a log buys little.
public final class DTA2Service: Sendable {
    public let authority: TrustedAuthority
    let signer: DTA2Signer
    let clock: ServerClock
    let limiter = RateLimiter()
    let issueRule = RateLimiter.Rule(limit: 30, window: 600)
    static let repliesPerQuery = RateLimiter.Rule(limit: 3, window: DTA2Signer.maxLifetime + 1)
    let permits = TimePermitMemo()
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
        let (hashedID, hashed) = try checkSignature(kind: "clientSecret", query: query, date: nil)
        try await countReply(query: query)
        try await countIssuance(kind: "clientSecret", hashed: hashed)
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
        let (hashedID, hashed) = try checkSignature(kind: "timePermit", query: query, date: date)
        // A repeat costs a lookup and counts nowhere: nobody can use the limits up with repeats.
        if let known = await permits.permit(hashed: hashed, date: date) { return TimePermitResponse(date: date, timePermit: known) }
        try await countReply(query: query)
        try await countIssuance(kind: "timePermit", hashed: hashed)
        do {
            let share = Hex.encode(try authority.timePermitShare(hashedID: hashedID, date: date))
            await permits.remember(share, hashed: hashed, date: date, today: today)
            logger.info("issued time permit share", metadata: ["hash_mpin_id": "\(hashed)", "date": "\(date)"])
            return TimePermitResponse(date: date, timePermit: share)
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

    /// The identity hash of a query the relying party signed.
    private func checkSignature(kind: String, query: [String: String], date: Int?) throws(APIError) -> ([UInt8], String) {
        // Only HASH_ID(ID) (PFS bytes, hex): D-TA 2 never sees the mpinId, which holds the e-mail.
        guard let text = query["hash_mpin_id"], text.utf8.count <= 256, let hashedID = Hex.decode(text),
            hashedID.count == hashIDLength
        else { throw APIError.bad("hash_mpin_id is missing or not the hex of an identity hash") }
        guard let expiresText = query["expires"], let expires = Int(expiresText), let sig = query["signature"]
        else { throw APIError.bad("expires and signature are required") }
        let hashed = Hex.encode(hashedID)
        guard signer.verify(kind: kind, hashedID: hashed, date: date, expires: expires, signature: sig, now: clock.now)
        else { throw APIError(.forbidden, "the request is not signed by the relying party, or it expired") }
        return (hashedID, hashed)
    }

    /// Counts one computed answer to this signed query (the relying party's signatures are
    /// deterministic: the same query signed in the same second is the same query).
    private func countReply(query: [String: String]) async throws(APIError) {
        guard await limiter.hit("query:" + (query["signature"] ?? "").lowercased(), Self.repliesPerQuery, now: clock.now)
        else { throw APIError(.rateLimited, "this signed query was used already; ask the relying party again") }
    }

    /// Counts one computed share of `kind` for the identity hash.
    private func countIssuance(kind: String, hashed: String) async throws(APIError) {
        guard await limiter.hit("\(kind):\(hashed)", issueRule, now: clock.now)
        else { throw APIError(.rateLimited, "too many requests for this identity") }
    }
}
