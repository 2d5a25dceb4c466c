import Synchronization

/// The clients the token side has just read, kept for `lifetime`: a site that refreshes or a
/// gateway that introspects authenticates on every request, and a client changes only when an
/// operator adds, removes or changes it (which then takes effect within `lifetime` on every
/// instance). Unknown ids are never kept, so a new client works at once.
final class ClientCache: Sendable {
    static let lifetime: Duration = .seconds(2)
    static let capacity = 1000

    private let entries = Mutex<[String: (client: OIDCClient, read: ContinuousClock.Instant)]>([:])

    /// The cached client, or `read`'s answer (kept when it names one).
    func client(id: String, read: (String) async throws -> OIDCClient?) async throws -> OIDCClient? {
        let now = ContinuousClock.now
        if let hit = entries.withLock({ $0[id] }), now - hit.read < Self.lifetime { return hit.client }
        guard let client = try await read(id) else { return nil }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[id] = (client, now)
        }
        return client
    }

    /// Drops a client this instance has just changed, so that the change holds here at once.
    func forget(_ id: String) { _ = entries.withLock { $0.removeValue(forKey: id) } }
}
