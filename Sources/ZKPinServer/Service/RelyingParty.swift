import Foundation
import Logging
import ZKPinProtocol
import ZKPinWire

/// The relying party with D-TA 1: every endpoint of spec/rps-api.md as a function from wire
/// types to wire types, throwing `APIError` for the 4xx answers. HTTP lives in `HTTP/`.
public final class RelyingParty: Sendable {
    public let config: ServerConfig
    public let store: any Store
    let suite: any MPinSuite
    let dta1: TrustedAuthority
    let dta2: DTA2Link
    let dta2Signer: DTA2Signer
    let serverSecret: PreparedServerSecret
    /// Verifies concurrent pass-2 logins together.
    let verifier: LoginBatcher
    /// HMAC key for activation links and page tokens (0600 file).
    let linkKey: [UInt8]
    let mailer: any Mailer
    let clock: ServerClock
    /// Rate limits counted in the store, shared by every instance on it.
    let limiter: StoreRateLimiter
    let logger: Logger
    public let metrics: ServerMetrics

    public init(config: ServerConfig, store: any Store, dta1: TrustedAuthority, dta2: DTA2Link, dta2Key: [UInt8],
                serverSecret: [UInt8], linkKey: [UInt8], mailer: any Mailer, clock: ServerClock = .system,
                logger: Logger = Logger(label: "zkpin.rps"), metrics: ServerMetrics = ServerMetrics()) throws {
        self.config = config
        self.store = store
        self.suite = dta1.suite
        self.dta1 = dta1
        self.dta2 = dta2
        self.dta2Signer = DTA2Signer(key: dta2Key)
        let prepared = try suite.prepareServerSecret(serverSecret)
        self.serverSecret = prepared
        self.verifier = LoginBatcher(suite: suite, serverSecret: prepared, maxBatch: config.maxVerificationBatch) { size in
            metrics.verificationBatches.increment()
            metrics.batchedVerifications.increment(by: Int64(size))
        }
        self.linkKey = linkKey
        self.mailer = mailer
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.limiter = StoreRateLimiter(store: store, logger: logger)
    }

    var now: Int { clock.now }

    func audit(_ kind: String, userId: String? = nil, mpinId: String? = nil, address: String? = nil, _ detail: String = "") async {
        do {
            try await store.appendAudit(AuditEvent(time: now, kind: kind, userId: userId, mpinId: mpinId, address: address, detail: detail))
        } catch {
            logger.error("audit write failed", metadata: ["kind": "\(kind)", "error": "\(error)"])
        }
    }

    /// Decodes an mpinId to the M-Pin ID bytes (400 when it is not hex of an identity).
    func idBytes(_ mpinId: String) throws(APIError) -> [UInt8] {
        guard mpinId.utf8.count <= 2048, let bytes = Hex.decode(mpinId), !bytes.isEmpty else {
            throw APIError.bad("mpin_id is not hex")
        }
        return bytes
    }

    func hexField(_ text: String, _ name: String) throws(APIError) -> [UInt8] {
        guard text.utf8.count <= 1024, let bytes = Hex.decode(text), !bytes.isEmpty else { throw APIError.bad("\(name) is not hex") }
        return bytes
    }

    func hashedID(_ id: [UInt8]) -> String { Hex.encode(suite.hashID(id)) }

    // MARK: Discovery

    public func service() -> ServiceInfo {
        ServiceInfo(name: config.serviceName, url: config.publicURL, logoURL: config.publicURL + "/logo.svg")
    }

    public func clientSettings() -> ClientSettings {
        ClientSettings(signatureURL: "/rps/signature", registerURL: "/rps/user", timePermitsURL: "/rps/timePermit",
                       mpinAuthServerURL: "/rps", mobileAuthenticateURL: "/rps/authenticate",
                       curve: config.curve.rawValue, usePermits: config.usePermits,
                       maxInvalidLoginAttempts: config.maxAttempts, dta2URL: dta2.clientURL)
    }
}
