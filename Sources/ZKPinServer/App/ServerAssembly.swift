import Hummingbird
import Logging

/// A built server: the router, and the work that runs beside it while it serves.
public struct ServerAssembly {
    public let router: Router<AppContext>
    public let background: ServerBackground
}

/// The work beside the router: the expiry purge, Web Push deliveries and back-channel logouts.
public struct ServerBackground: Sendable {
    let rp: RelyingParty
    let push: PushFeature
    /// Nil without the OpenID Connect provider (a server without a data folder).
    let signOut: SignOutFeature?
    /// Nil without the OpenID Connect provider, whose keys sign the events.
    let hooks: HooksFeature?
    let logger: Logger

    /// Runs until the task is cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await ExpiryPurger(rp: rp, logger: logger).run() }
            group.addTask { await push.deliverer.run() }
            if let signOut { group.addTask { await signOut.deliverer.run() } }
            if let hooks { group.addTask { await hooks.deliverer.run() } }
        }
    }

    /// One round of the back-channel logouts: ends the sign-ins of identities no longer
    /// active and posts the logouts due now (tests; the server runs `run`).
    @discardableResult
    public func deliverLogouts() async throws -> Bool { try await signOut?.deliverer.round() ?? false }

    /// One round of the hooks: each due hook is sent what the audit log has for it (tests).
    @discardableResult
    public func deliverHookEvents() async throws -> Bool { try await hooks?.deliverer.round() ?? false }

    /// Sends the push messages due now, once (tests; the server runs `run`).
    @discardableResult
    public func deliverPushMessages() async throws -> Int { try await push.deliverer.deliverDue() }
}

extension ZKPinServerApp {
    /// The Push feature with its settings and the VAPID key of the data folder (created with
    /// the other keys on first start; in memory when the server has no data folder).
    static func makePush(rp: RelyingParty, options o: ServeOptions, logger: Logger) throws -> PushFeature {
        var options = PushOptions(
            subject: o.pushSubject ?? PushOptions.defaultSubject(publicURL: rp.config.publicURL, mailFrom: rp.config.mailFrom))
        guard VAPIDKey.isContact(options.subject) else {
            throw SetupError("--push-subject must be a mailto: address or an https URL (the push services' way to reach you), not \(options.subject)")
        }
        if let services = o.pushServices {
            do { options.services = try PushServices(parsing: services) } catch {
                throw SetupError("--push-services: \(error.description)")
            }
        }
        let vapid: VAPIDKey
        do {
            if let dir = rp.config.dataDirectory { vapid = try VAPIDKey.loadOrCreate(dataDirectory: dir) } else { vapid = try VAPIDKey.ephemeral() }
        } catch {
            throw SetupError("the VAPID key cannot be read or created: \(error)", kind: .dataFolder)
        }
        return PushFeature(rp: rp, options: options, vapid: vapid, logger: logger)
    }
}
