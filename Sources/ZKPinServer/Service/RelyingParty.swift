import Foundation
import Logging
import ZKPinProtocol
import ZKPinWire

/// The relying party with D-TA 1: the services behind every endpoint of the HTTP API (openapi.yaml), each
/// holding only the collaborators it needs, built here from the server's parts. HTTP lives in
/// `HTTP/`.
public final class RelyingParty: Sendable {
    public let config: ServerConfig
    public let store: Store
    public let metrics: ServerMetrics
    let registration: RegistrationService
    let activation: ActivationService
    let shares: ShareService
    let access: AccessService
    let login: LoginService
    let devices: DeviceService
    /// D-TA 2's URL for clients (nil when it runs in process under /dta2).
    let dta2: DTA2Link
    /// The parts the features (Features/) build their services from.
    let storage: StorageGateway
    let limiter: StoreRateLimiter
    let audit: AuditTrail
    let links: LinkSigner
    let clock: ServerClock
    let mailer: any Mailer
    let suite: any MPinSuite
    /// The server secret prepared for pairings, and the pairing worker they run on.
    let preparedSecret: PreparedServerSecret
    let batcher: LoginBatcher
    /// What happened for a person, for the features that act on it (`PersonEvents`).
    public let events: PersonEvents
    /// "Not me" on a device (push sign-ins, a site's approval requests).
    let notMe: NotMeResponse

    public init(
        config: ServerConfig, store: Store, dta1: TrustedAuthority, dta2: DTA2Link, dta2Key: [UInt8],
        serverSecret: [UInt8], linkKey: [UInt8], mailer: any Mailer, clock: ServerClock = .system,
        logger: Logger = Logger(label: "zkpin.rps"), metrics: ServerMetrics = ServerMetrics()
    ) throws {
        self.config = config
        self.store = store
        self.metrics = metrics
        self.dta2 = dta2
        let storage = StorageGateway(store: store, logger: logger)
        let limiter = StoreRateLimiter(storage: storage)
        let audit = AuditTrail(store: store, clock: clock, logger: logger)
        let links = LinkSigner(key: linkKey, publicURL: config.publicURL)
        let events = PersonEvents()
        self.events = events
        notMe = NotMeResponse(config: config, storage: storage, metrics: metrics, mailer: mailer, logger: logger)
        self.storage = storage
        self.limiter = limiter
        self.mailer = mailer
        self.audit = audit
        self.links = links
        self.clock = clock
        let suite = dta1.suite
        self.suite = suite
        let prepared = try suite.prepareServerSecret(serverSecret, identityCacheEntries: config.identityCacheEntries)
        self.preparedSecret = prepared
        let batcher = LoginBatcher(
            suite: suite, serverSecret: prepared, maxBatch: config.maxVerificationBatch,
            maxWait: Double(config.verificationWaitMilliseconds) / 1000
        ) { size in
            metrics.verificationBatches.increment()
            metrics.batchedVerifications.increment(by: Int64(size))
        }
        self.batcher = batcher
        registration = RegistrationService(
            config: config, storage: storage, limiter: limiter, links: links, mailer: mailer,
            audit: audit, metrics: metrics, clock: clock, logger: logger, suite: suite)
        activation = ActivationService(
            config: config, storage: storage, limiter: limiter, links: links, audit: audit,
            metrics: metrics, clock: clock, events: events)
        shares = ShareService(
            config: config, storage: storage, limiter: limiter, registrations: registration, dta1: dta1, dta2Signer: DTA2Signer(key: dta2Key),
            audit: audit, clock: clock, links: links)
        access = AccessService(config: config, storage: storage, limiter: limiter, links: links, audit: audit, clock: clock, events: events)
        login = LoginService(
            config: config, storage: storage, limiter: limiter, access: access,
            verifier: LoginVerifier(suite: suite, serverSecret: prepared, batcher: batcher),
            audit: audit, metrics: metrics, clock: clock,
            notices: BlockNotifier(config: config, mailer: mailer, logger: logger), links: links)
        devices = DeviceService(config: config, storage: storage, audit: audit, mailer: mailer, logger: logger)
    }

    // MARK: Discovery

    public func service() -> ServiceInfo {
        ServiceInfo(name: config.serviceName, url: config.publicURL, logoURL: config.publicURL + "/pages/logo")
    }

    public func clientSettings() -> ClientSettings {
        ClientSettings(
            signatureURL: "/rps/signature", registerURL: "/rps/user", timePermitsURL: "/rps/timePermit",
            mpinAuthServerURL: "/rps", mobileAuthenticateURL: "/rps/authenticate",
            curve: config.curve.rawValue, usePermits: config.usePermits,
            maxInvalidLoginAttempts: config.maxAttempts, dta2URL: dta2.clientURL)
    }
}
