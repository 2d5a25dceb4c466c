/// Time-permit shares D-TA 2 already computed, by identity hash and day: a repeat is answered
/// from here and does not count towards the identity's limit. Only days from yesterday on
/// are kept, and at most `capacity` entries (then the memo starts over; nothing is lost but time).
actor TimePermitMemo {
    static let capacity = 100_000
    private var shares: [String: String] = [:]
    private var oldestDay = Int.min

    func permit(hashed: String, date: Int) -> String? { shares["\(date):\(hashed)"] }

    func remember(_ share: String, hashed: String, date: Int, today: Int) {
        if today - 1 > oldestDay {
            oldestDay = today - 1
            shares = shares.filter { (Int($0.key.prefix { $0 != ":" }) ?? 0) >= oldestDay }
        }
        if shares.count >= Self.capacity { shares.removeAll() }
        shares["\(date):\(hashed)"] = share
    }
}
