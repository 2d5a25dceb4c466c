/// Fixed-window counters in memory, per key. D-TA 2 (which has no store) limits with it; the
/// relying party counts in its store instead (`StoreRateLimiter`) so that its instances share
/// the windows.
public actor RateLimiter {
    public struct Rule: Sendable {
        public var limit: Int
        public var window: Int
        public init(limit: Int, window: Int) { self.limit = limit; self.window = window }
    }

    private var windows: [String: (start: Int, count: Int)] = [:]

    public init() {}

    /// Counts one event and answers whether it is within the rule.
    public func hit(_ key: String, _ rule: Rule, now: Int) -> Bool {
        sweep(now: now, window: rule.window)
        var w = windows[key] ?? (now, 0)
        if now - w.start >= rule.window { w = (now, 0) }
        w.count += 1
        windows[key] = w
        return w.count <= rule.limit
    }

    /// Whether earlier events already used up the rule (without counting one).
    public func exhausted(_ key: String, _ rule: Rule, now: Int) -> Bool {
        guard let w = windows[key], now - w.start < rule.window else { return false }
        return w.count >= rule.limit
    }

    private var lastSweep = 0
    private func sweep(now: Int, window: Int) {
        guard now - lastSweep > 60, windows.count > 10_000 else { return }
        lastSweep = now
        windows = windows.filter { now - $0.value.start < 3600 }
    }
}
