/// Grants a person answers elsewhere (CIBA requests, device codes): where each stands, and
/// one poll of the token endpoint (`PollingRules`), for every table that carries the polling
/// columns (status, expires, poll_interval, next_poll).
extension Store {
    /// One poll of a grant that a person answers elsewhere (CIBA's `ciba_requests`, the device
    /// grant's `device_codes`: both carry status, expires, poll_interval and next_poll): the
    /// row as it is after the poll, and the verdict. One locked transaction.
    func pollGrant(table: String, key: String, id: String, clientId: String, now: Int) async throws -> (SQLRow, PollingRules.Verdict)? {
        let lock = dialect.lockRow
        return try await transaction { tx in
            guard let row = try tx.one("SELECT * FROM \(raw: table) WHERE \(raw: key) = \(id) AND client_id = \(clientId) \(raw: lock)")
            else { return nil }
            var state = try PolledGrant(row: row)
            let verdict = PollingRules.decide(state.rules, now: now)
            state.apply(verdict, now: now)
            _ = try tx.run(
                """
                UPDATE \(raw: table) SET status = \(state.status.rawValue), poll_interval = \(state.rules.interval),
                    next_poll = \(state.rules.nextPoll) WHERE \(raw: key) = \(id)
                """)
            var after = row
            after.columns["status"] = .text(state.status.rawValue)
            after.columns["poll_interval"] = .int(state.rules.interval)
            after.columns["next_poll"] = .int(state.rules.nextPoll)
            return (after, verdict)
        }
    }
}

/// Where a grant that a person answers elsewhere stands.
public enum GrantStatus: String, Sendable {
    case pending, approved, denied
    /// The answer was handed to the client (tokens or access_denied): nothing more to redeem.
    case redeemed

    init(row r: SQLRow) throws {
        guard let status = GrantStatus(rawValue: try r.text("status")) else {
            throw SQLRow.Mismatch(column: "status", found: try r.value("status"))
        }
        self = status
    }

    var answer: PollingRules.Answer? {
        switch self {
        case .pending: nil
        case .approved: .approved
        case .denied: .denied
        case .redeemed: .redeemed
        }
    }
}

/// The polling columns of a grant's row, and what one poll does to them.
struct PolledGrant {
    var status: GrantStatus
    var rules: PollingRules.State

    init(row r: SQLRow) throws {
        status = try GrantStatus(row: r)
        rules = PollingRules.State(
            answer: status.answer, expires: try r.int("expires"), nextPoll: try r.int("next_poll"), interval: try r.int("poll_interval"))
    }

    mutating func apply(_ verdict: PollingRules.Verdict, now: Int) {
        (rules.interval, rules.nextPoll) = PollingRules.after(verdict, rules, now: now)
        if verdict == .issue || verdict == .denied { status = .redeemed }
    }
}
