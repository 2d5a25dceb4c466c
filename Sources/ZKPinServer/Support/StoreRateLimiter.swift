/// The relying party's rate limits, counted in the store: instances that share a PostgreSQL
/// database (or one SQLite file) share the windows, so a guesser gains nothing by spreading
/// requests over them. Each count is one atomic upsert (`Store.countEvent`). A store failure
/// is the one storage answer (503), like every other store call.
struct StoreRateLimiter: Sendable {
    let storage: StorageGateway

    /// Counts one event and answers whether it is within the rule.
    func hit(_ key: String, _ rule: RateLimiter.Rule, now: Int) async throws(APIError) -> Bool {
        try await storage("count rate-limit event") { try await $0.countEvent(key: key, window: rule.window, now: now) } <= rule.limit
    }

    /// Takes back one event counted by `hit` (a try that turned out right).
    func giveBack(_ key: String) async throws(APIError) {
        try await storage("give back a rate-limit event") { try await $0.uncountEvent(key: key) }
    }

    /// Whether earlier events already used up the rule (without counting one).
    func exhausted(_ key: String, _ rule: RateLimiter.Rule, now: Int) async throws(APIError) -> Bool {
        try await storage("read rate-limit count") { try await $0.eventCount(key: key, now: now) } >= rule.limit
    }
}

extension CountedEvent {
    init(key: String, rule: RateLimiter.Rule) { self.init(key: key, limit: rule.limit, window: rule.window) }
}
