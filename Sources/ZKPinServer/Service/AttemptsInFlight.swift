/// The answer when every attempt an identity has left is held by a login in flight: 429 with
/// how long until the holds end. A login that a crash or a restart cut short keeps its hold
/// until then (`attemptHold` after the identity's last reservation): the store cannot tell it
/// from a slow one, and letting it go at once would be a free PIN guess for whoever can make the
/// server restart. So right after a restart, an identity that had logins in flight waits out
/// the rest of the hold; the message and `Retry-After` say how long.
enum AttemptsInFlight {
    static func refusal(mpinId: String, now: Int, storage: StorageGateway) async -> APIError {
        let until = try? await storage("read attempt hold") { try await $0.attemptHoldEnds(mpinId: mpinId) }
        let wait = max(1, (until ?? now + 1) - now)
        var error = APIError(
            .rateLimited,
            "other logins of this identity are in progress (or were cut short by a server restart); try again in \(wait) s")
        error.retryAfter = wait
        return error
    }
}

extension Store {
    /// When the identity's reserved attempts stop counting (`reserved_until`), nil when unknown.
    public func attemptHoldEnds(mpinId: String) async throws -> Int? {
        try await driver.readOne("SELECT reserved_until FROM identities WHERE mpin_id = \(mpinId)")?.int("reserved_until")
    }
}
