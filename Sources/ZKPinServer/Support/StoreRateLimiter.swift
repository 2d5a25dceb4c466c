import Logging

/// The relying party's rate limits, counted in the store: instances that share a PostgreSQL
/// database (or one SQLite file) share the windows, so a guesser gains nothing by spreading
/// requests over them. Each count is one atomic upsert (`Store.countEvent`).
public struct StoreRateLimiter: Sendable {
    let store: any Store
    let logger: Logger

    public init(store: any Store, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Counts one event and answers whether it is within the rule. When the store fails, the
    /// event is let through: the request needs the store anyway and fails there with a 500,
    /// while refusing here would turn a database hiccup into a wrong 429.
    public func hit(_ key: String, _ rule: RateLimiter.Rule, now: Int) async -> Bool {
        do { return try await store.countEvent(key: key, window: rule.window, now: now) <= rule.limit } catch {
            logger.error("rate-limit count failed", metadata: ["error": "\(error)"])
            return true
        }
    }

    /// Whether earlier events already used up the rule (without counting one).
    public func exhausted(_ key: String, _ rule: RateLimiter.Rule, now: Int) async -> Bool {
        do { return try await store.eventCount(key: key, now: now) >= rule.limit } catch {
            logger.error("rate-limit read failed", metadata: ["error": "\(error)"])
            return false
        }
    }
}
