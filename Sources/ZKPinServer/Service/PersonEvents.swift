import Synchronization

/// Something that happened for a person, which other rooms act on (Push tells the person's
/// devices): the core and the features emit, `App` connects the listeners, so no feature
/// references another. A listener only records work (a queue row, a counter); it never
/// makes the emitting request wait on a remote call, and never throws into it.
public enum PersonEvent: Sendable, Equatable {
    /// A site asks the person to approve something (CIBA); `userId` nil when the hint named
    /// nobody registered (nothing is told, the request only expires).
    case approvalRequested(userId: String, requestId: String, site: String, message: String, expires: Int)
    /// A new identity was activated for the person's e-mail address (tell their other devices).
    case identityActivated(userId: String, mpinId: String, device: String)
    /// The person signed out of a ZKPin web session (the sites they signed in to from it are told).
    case signedOut(userId: String, mpinId: String, sessionHash: String)
}

/// The listeners of `PersonEvent`s.
public final class PersonEvents: Sendable {
    public typealias Listener = @Sendable (PersonEvent) async -> Void
    private let listeners = Mutex<[Listener]>([])

    public init() {}

    /// Adds a listener (App does, while it builds the server).
    public func listen(_ listener: @escaping Listener) {
        listeners.withLock { $0.append(listener) }
    }

    /// Tells every listener, in the order they were added.
    public func emit(_ event: PersonEvent) async {
        for listener in listeners.withLock({ $0 }) { await listener(event) }
    }
}
