/// The token endpoint's polling rules for a grant a person answers elsewhere: CIBA's poll and
/// ping modes (CIBA Core 1.0 section 11) and the device grant (RFC 8628 section 3.5) share
/// them. A pure function of the stored state and the time, so both stores apply it inside
/// the transaction that records the poll.
public enum PollingRules {
    public enum Answer: Sendable, Equatable { case approved, denied, redeemed }

    public struct State: Sendable, Equatable {
        /// nil while the person has not answered.
        public var answer: Answer?
        public var expires: Int
        /// The earliest time the next poll is welcome.
        public var nextPoll: Int
        public var interval: Int
    }

    public enum Verdict: Sendable, Equatable {
        /// Approved: issue the tokens (once).
        case issue
        /// `authorization_pending`.
        case pending
        /// `slow_down`: polled before `nextPoll`; the interval grows by `slowDownStep`.
        case slowDown
        /// `access_denied` (once; the request is then used up).
        case denied
        /// `expired_token`.
        case expired
        /// Redeemed already: `invalid_grant`.
        case used
    }

    /// RFC 8628 section 3.5: after `slow_down` the client adds 5 seconds to its interval.
    public static let slowDownStep = 5
    /// The longest interval `slow_down` grows to.
    public static let longestInterval = 60

    public static func decide(_ s: State, now: Int) -> Verdict {
        if s.answer == .redeemed { return .used }
        if now >= s.expires { return .expired }
        switch s.answer {
        case .approved: return .issue
        case .denied: return .denied
        default: return now < s.nextPoll ? .slowDown : .pending
        }
    }

    /// The interval and next poll time after a poll with `verdict`.
    public static func after(_ verdict: Verdict, _ s: State, now: Int) -> (interval: Int, nextPoll: Int) {
        switch verdict {
        case .slowDown:
            let interval = min(s.interval + slowDownStep, longestInterval)
            return (interval, now + interval)
        case .pending:
            return (s.interval, now + s.interval)
        default:
            return (s.interval, s.nextPoll)
        }
    }
}
