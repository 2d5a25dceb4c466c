import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ZKPinProtocol
import ZKPinWire

/// Builds the relying party from options and serves it.
public enum ZKPinServerApp {
    /// Opens the data folder: store, curve (fixed at first start), keys, D-TA 1 (and D-TA 2 in
    /// process), server secret, mailer.
    /// `wrapStore` lets tests put a store that fails on demand between the services and the
    /// real one.
    public static func makeRelyingParty(
        _ o: ServeOptions, clock: ServerClock = .system, logger: Logger = Logger(label: "zkpin"),
        wrapStore: (Store) -> Store = { $0 }
    ) async throws
        -> (RelyingParty, DTA2Service?)
    {
        // Every setting and every file it names is checked before anything is written (the
        // public URL goes into links before the port is bound, so port 0 needs one).
        try preflight(o)
        // A separate D-TA 2 that cannot be reached stops the start before the data folder exists.
        var dta2Status: ServerStatus? = nil
        if let url = o.dta2URL {
            let base = url.hasSuffix("/") ? String(url.dropLast()) : url
            do { dta2Status = try await HTTPJSON.get(base + "/status", as: ServerStatus.self) } catch {
                throw SetupError("D-TA 2 at \(url) cannot be reached", kind: .unavailable)
            }
        }
        let dir = o.dataDirectory
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SetupError("the data folder \(dir) cannot be created: \(DataFolder.reason(error))", kind: .dataFolder)
        }
        func path(_ name: String) -> String { (dir as NSString).appendingPathComponent(name) }
        let store = try await openStore(dataDirectory: dir, database: o.database, passwordFile: o.databasePasswordFile, logger: logger)

        let stored = try await store.fixSetting("curve", value: (o.curve ?? .bls12_381).rawValue)
        guard let curve = CurveID(name: stored) else { throw SetupError("the data folder names an unknown curve \(stored)") }
        if let wanted = o.curve, wanted != curve {
            throw SetupError(
                "\(dir) was created for curve \(curve.rawValue); it cannot be served with \(wanted.rawValue). Use another --data folder.")
        }
        let suite = curve.suite
        let dta1: TrustedAuthority
        let linkKey: [UInt8]
        do {
            dta1 = try TrustedAuthority.load(path: path("dta1.master"), suite: suite)
            linkKey = try SecretFile.loadOrCreate(path("rps.key")) { Digest.randomBytes(32) }
        } catch {
            throw SetupError("the keys in \(dir) cannot be read or created: \(DataFolder.reason(error))", kind: .dataFolder)
        }

        let link: DTA2Link
        let dta2Key: [UInt8]
        let share2: [UInt8]
        var inProcess: DTA2Service? = nil
        if let url = o.dta2URL {
            guard let keyFile = o.dta2KeyFile else { throw SetupError("--dta2 needs --dta2-key-file") }
            do { dta2Key = try SecretFile.load(keyFile) } catch {
                throw SetupError("--dta2-key-file: \(DataFolder.reason(error))", kind: .configuration)
            }
            link = .remote(url: url)
            let signer = DTA2Signer(key: dta2Key)
            let query = signer.query(kind: "serverSecret", hashedID: nil, date: nil, now: clock.now)
            let base = url.hasSuffix("/") ? String(url.dropLast()) : url
            guard let status = dta2Status else { throw SetupError("D-TA 2 at \(url) cannot be reached", kind: .unavailable) }
            guard CurveID(name: status.curve) == curve else {
                throw SetupError("D-TA 2 at \(url) uses curve \(status.curve), this server \(curve.rawValue)")
            }
            let answer = try await HTTPJSON.get(base + "/serverSecret?" + query, as: ServerSecretResponse.self)
            guard let bytes = SecretFile.hexBytes(answer.serverSecret) else { throw SetupError("D-TA 2 sent a malformed server secret") }
            share2 = bytes
        } else {
            dta2Key = try SecretFile.loadOrCreate(path("dta2.key")) { Digest.randomBytes(32) }
            let dta2 = DTA2Service(
                authority: try TrustedAuthority.load(path: path("dta2.master"), suite: suite), key: dta2Key,
                clock: clock, logger: Logger(label: "zkpin.dta2"))
            inProcess = dta2
            link = .inProcess(dta2)
            share2 = try dta2.authority.serverSecretShare()
        }
        let serverSecret = try suite.addG2(try dta1.serverSecretShare(), share2)
        // Instances sharing a database must hold the same keys (one data folder, shared or
        // copied): a folder with other keys would fail every login and activation link of the
        // others, so it is refused at start. The fingerprint is a hash; no key is stored.
        let fingerprint = Tokens.hmac(key: linkKey, "zkpin-keys\n" + Hex.encode(serverSecret))
        if try await store.fixSetting("keys", value: fingerprint) != fingerprint {
            throw SetupError(
                "the keys in \(dir) differ from those of the instances that already use this database: give every instance a copy of the same data folder (dta1.master, rps.key, dta2.key)"
            )
        }

        let publicURL = o.publicURL ?? "http://\(o.host):\(o.port)"
        let config = ServerConfig(o, publicURL: publicURL, curve: curve, webDirectory: try WebFolder.find(setting: o.webDirectory))
        if config.webDirectory == nil {
            logger.warning("no web client folder found (--web-dir): /app and /js are not served")
        }
        let mailer = try makeMailer(o, logger: logger)
        // Files made before this version (zkpin.sqlite was 0644) are narrowed too.
        DataFolder.restrictPermissions(dir)
        let rp = try RelyingParty(
            config: config, store: wrapStore(store), dta1: dta1, dta2: link, dta2Key: dta2Key,
            serverSecret: serverSecret, linkKey: linkKey, mailer: mailer, clock: clock, logger: logger)
        return (rp, inProcess)
    }

    /// Where the server's mails go: the SMTP relay of `o.smtp`, else the outbox folder
    /// (`o.outbox`, by default the data folder's `outbox`).
    public static func makeMailer(_ o: ServeOptions, logger: Logger) throws -> any Mailer {
        if let smtp = o.smtp {
            return try SMTPMailer(url: smtp, passwordFile: o.smtpPasswordFile, caFile: o.smtpCAFile, logger: logger)
        }
        return try OutboxMailer(directory: o.outbox ?? (o.dataDirectory as NSString).appendingPathComponent("outbox"))
    }

    /// The router of a relying party (with `/dta2` when D-TA 2 runs in process), with the
    /// features' default settings.
    public static func router(rp: RelyingParty, dta2: DTA2Service?, logger: Logger) throws -> Router<AppContext> {
        try assemble(rp: rp, dta2: dta2, options: ServeOptions(), logger: logger).router
    }

    /// The server built from the relying party: its router and its background work.
    public static func assemble(rp: RelyingParty, dta2: DTA2Service?, options o: ServeOptions, logger: Logger) throws -> ServerAssembly {
        // HEAD answers as GET without the body (RFC 9110 section 9.3.2): monitors send it.
        let router = Router(context: AppContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RedactingLogMiddleware(logger: logger, metrics: rp.metrics))
        router.add(middleware: RequestScopeMiddleware())
        let allowed = AllowedMethods()
        router.add(middleware: ErrorShapeMiddleware(logger: logger, allowed: allowed))
        router.add(middleware: BodyLimitMiddleware(bodyTimeout: rp.config.bodyTimeout))
        let address = ClientAddress(trustedProxy: rp.config.trustedProxy)
        router.addRoutes(DiscoveryRoutes.collection(rp: rp))
        router.addRoutes(RegistrationRoutes.collection(registration: rp.registration, shares: rp.shares, address: address))
        // The features (Features/): each builds its services from the relying party's parts.
        let push = try makePush(rp: rp, options: o, logger: logger)
        router.addRoutes(PushRoutes.collection(push, address: address))
        let otp = OTPService(rp: rp)
        let approvals = ApprovalService(rp: rp)
        let oneTimeCodes = OneTimeCodeLogin(login: rp.login, otp: otp)
        router.addRoutes(
            LoginRoutes.collection(login: rp.login, address: address) { body, from in try await oneTimeCodes.pass2(body, address: from) })
        router.addRoutes(OTPRoutes.collection(otp: otp, storage: rp.storage, address: address))
        router.addRoutes(ApprovalRoutes.collection(approvals: approvals, address: address))
        router.addRoutes(
            AccessRoutes.collection(
                access: rp.access, binding: PageBinding(config: rp.config, key: rp.links.key),
                address: address))
        let pages = try Pages(clientCommand: rp.config.clientCommand)
        var signOut: SignOutFeature?
        var hooks: HooksFeature?
        router.addRoutes(
            PageRoutes.collection(rp: rp, pages: pages, brand: try PageBrand(accent: o.accentColor, logoFile: o.logoFile), address: address))
        if let dir = rp.config.dataDirectory {
            let web = try OIDCRoutes.add(
                to: router, rp: rp, pages: pages, dataDirectory: dir, extensionGrants: [CIBARoutes.grant, DeviceRoutes.grant, AdminGrant.grant])
            router.addRoutes(CIBARoutes.collection(web, approvals: approvals))
            router.addRoutes(DeviceRoutes.collection(web, pages: pages))
            let feature = SignOutFeature(
                rp: rp, provider: web.provider, window: o.backchannelLogoutWindow, http: HTTPJSON.noRedirects, logger: logger)
            router.addRoutes(LogoutRoutes.collection(web, sites: feature.sites))
            signOut = feature
            router.addRoutes(AdminAPIRoutes.collection(provider: web.provider, address: address))
            if let text = o.admins {
                guard let admins = AdminPageAccess.parse(text) else {
                    throw SetupError("--admins must be e-mail addresses separated by commas", kind: .configuration)
                }
                router.addRoutes(try AdminPageRoutes.collection(rp: rp, provider: web.provider, admins: admins, address: address))
            }
            hooks = HooksFeature(rp: rp, provider: web.provider, maxAge: o.hookMaxAge, http: HTTPJSON.noRedirects, logger: logger)
        }
        if let text = o.forwardAuth {
            do { router.addRoutes(ForwardAuthRoutes.collection(rp: rp, rules: try ForwardAuthRules(parsing: text))) } catch {
                throw SetupError("--forward-auth: \(error.description)", kind: .configuration)
            }
        }
        if let domain = rp.config.cookieDomain, let host = ReturnAddress.host(of: rp.config.publicURL), host != domain, !host.hasSuffix("." + domain)
        {
            throw SetupError("--cookie-domain \(domain) does not contain the public URL's host \(host)", kind: .configuration)
        }
        if let dta2 { DTA2Routes.add(to: router, dta2: dta2, prefix: "/dta2", withStatus: true) }
        if let web = rp.config.webDirectory {
            do { router.addRoutes(WebRoutes.collection(files: try WebFiles(folder: web), dta2URL: rp.dta2.clientURL)) } catch {
                throw SetupError("the web client in \(web) cannot be read: \(error)", kind: .dataFolder)
            }
        }
        allowed.record(router)
        return ServerAssembly(router: router, background: ServerBackground(rp: rp, push: push, signOut: signOut, hooks: hooks, logger: logger))
    }

    /// The router of D-TA 2 alone.
    /// With `corsOrigin`, that one origin (the relying party's web app) may read the answers
    /// (Hummingbird's `CORSMiddleware`, GET only, no credentials); any other origin may not.
    public static func dtaRouter(_ dta2: DTA2Service, logger: Logger, corsOrigin: String? = nil) -> Router<AppContext> {
        // HEAD answers as GET without the body (RFC 9110 section 9.3.2): monitors send it.
        let router = Router(context: AppContext.self, options: .autoGenerateHeadEndpoints)
        if let corsOrigin {
            router.add(middleware: CORSMiddleware(allowOrigin: .custom(corsOrigin), allowHeaders: [.accept], allowMethods: [.get]))
        }
        router.add(middleware: RedactingLogMiddleware(logger: logger, metrics: nil))
        let allowed = AllowedMethods()
        router.add(middleware: ErrorShapeMiddleware(logger: logger, allowed: allowed))
        DTA2Routes.add(to: router, dta2: dta2, prefix: "", withStatus: true)
        allowed.record(router)
        return router
    }

    public static func makeDTA2(_ o: DTAOptions, clock: ServerClock = .system, logger: Logger = Logger(label: "zkpin.dta2")) throws -> DTA2Service {
        try FileManager.default.createDirectory(atPath: o.dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let masterPath = (o.dataDirectory as NSString).appendingPathComponent("dta2.master")
        let curvePath = (o.dataDirectory as NSString).appendingPathComponent("curve")
        if let stored = try? String(contentsOfFile: curvePath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            !stored.isEmpty, stored != o.curve.rawValue
        {
            throw SetupError("\(o.dataDirectory) was created for curve \(stored); it cannot serve \(o.curve.rawValue)")
        }
        try PrivateFile.write(Array((o.curve.rawValue + "\n").utf8), to: curvePath, replace: true)
        return DTA2Service(
            authority: try TrustedAuthority.load(path: masterPath, suite: o.curve.suite),
            key: try SecretFile.load(o.keyFile), clock: clock, logger: logger)
    }

    /// Binds and serves `router` until the task is cancelled; `onRunning` gets the bound port.
    /// The file-descriptor soft limit is raised to the hard limit first, and the connection cap
    /// kept under it; idle connections (and unfinished request heads) are closed after
    /// `limits.idleTimeout` seconds.
    public static func serve(
        router: Router<AppContext>, host: String, port: Int, logger: Logger, limits: ServerLimits = ServerLimits(ServeOptions()),
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let descriptors = FileDescriptorLimit.raiseToHardLimit()
        let cap = limits.effectiveMaxConnections(descriptorLimit: descriptors)
        if cap < limits.maxConnections {
            logger.warning(
                "connection cap lowered to fit the file-descriptor limit",
                metadata: ["max_connections": "\(cap)", "descriptor_limit": "\(descriptors)"])
        }
        let gate = ConnectionGate(
            limit: cap, perAddressLimit: limits.perAddressConnections(cap: cap),
            unlimitedAddresses: limits.trustedProxy.map { [$0] } ?? [])
        let idle = TimeAmount.seconds(Int64(limits.idleTimeout))
        let http1 = HTTP1Channel.Configuration(idleTimeout: idle)
        let server = HTTPServerBuilder { responder in
            CappedHTTP1Channel(
                inner: HTTP1Channel(responder: responder, configuration: http1), gate: gate, stalledWriteTimeout: idle)
        }
        // The backlog holds connections the accept loop has not taken yet; the cap answers the rest.
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "zkpin", backlog: 1024),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        // The connections' tasks (children of the server's task group) inherit the preference.
        try await withTaskExecutorPreference(EventLoopTaskExecutor(group: app.eventLoopGroup)) {
            try await app.runService()
        }
    }
}
