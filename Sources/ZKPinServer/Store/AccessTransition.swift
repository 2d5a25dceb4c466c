/// The access-code state machine as data (docs/login-states.md): each move names the states it
/// may leave, the state it enters, the columns it sets and what else must hold. `Store.move`
/// is its only performer in SQL (the one `status IN (...)` builder), `AccessService` the only
/// service that calls it, and a test checks the doc's table against `all`.
public struct AccessTransition: Sendable, Equatable {
    /// A column a move sets besides `status`, from `AccessMoveValues`.
    public enum Column: String, Sendable, CaseIterable {
        case mpinId = "mpin_id"
        case userId = "user_id"
        case authOTTHash = "auth_ott_hash"
        case authenticatedAt = "authenticated_at"
        case takenUp = "taken_up"
    }
    /// What must hold besides the state.
    public enum Condition: String, Sendable {
        /// The code has not expired.
        case live
        /// The login's authOTT is the one pass 2 recorded.
        case sameAuthOTT
        /// Authenticated within the window the move is given.
        case recentlyAuthenticated
    }

    public var name: String
    public var from: [AccessSession.Status]
    public var to: AccessSession.Status
    public var sets: [Column]
    public var conditions: [Condition]

    /// A client presented the code (`/rps/codeStatus`, or pass 1 or 2 with `WID`).
    public static let present = AccessTransition(name: "present", from: [.new, .wid, .wrongPIN], to: .wid, sets: [], conditions: [.live])
    /// `/rps/authenticate` refused a genuine wrong PIN; the page shows the attempts left.
    public static let wrongPIN = AccessTransition(name: "wrong PIN", from: [.wid], to: .wrongPIN, sets: [.mpinId], conditions: [.live])
    /// Pass 2 verified.
    public static let verify = AccessTransition(
        name: "verify", from: [.wid], to: .user, sets: [.mpinId, .userId, .authOTTHash], conditions: [.live])
    /// `/rps/authenticate` succeeded.
    public static let authenticate = AccessTransition(
        name: "authenticate", from: [.user], to: .authenticate, sets: [.authenticatedAt], conditions: [.live, .sameAuthOTT])
    /// The page's poll saw `authenticate` (the state stays; the flag tells `zkpin login`).
    public static let takeUp = AccessTransition(name: "take up", from: [.authenticate], to: .authenticate, sets: [.takenUp], conditions: [])
    /// The page exchanged the login for a session cookie.
    public static let use = AccessTransition(name: "use", from: [.authenticate], to: .used, sets: [], conditions: [.recentlyAuthenticated])
    /// The login with this code blocked its identity.
    public static let block = AccessTransition(name: "block", from: [.wid, .user], to: .blocked, sets: [], conditions: [.live])
    /// The login with this code was refused (no genuine token, a revoked or unknown identity).
    public static let refuse = AccessTransition(name: "refuse", from: [.wid, .user], to: .refused, sets: [], conditions: [.live])

    /// The person denied this code's push sign-in on their device (a wrong number, "Not me"):
    /// before any login with it finished.
    public static let deny = AccessTransition(name: "deny", from: [.new, .wid, .wrongPIN], to: .denied, sets: [], conditions: [.live])

    public static let all: [AccessTransition] = [present, wrongPIN, verify, authenticate, takeUp, use, block, refuse, deny]

    /// The table of docs/login-states.md ("Transitions"), one row per move.
    public static var markdownTable: String {
        var lines = ["| move | from | to | sets | only when |", "|---|---|---|---|---|"]
        for t in all {
            let from = t.from.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            let sets = t.sets.isEmpty ? "—" : t.sets.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            let when = t.conditions.isEmpty ? "—" : t.conditions.map(\.rawValue).joined(separator: ", ")
            lines.append("| \(t.name) | \(from) | `\(t.to.rawValue)` | \(sets) | \(when) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// What finds the session a move applies to.
public enum AccessKey: Sendable, Equatable {
    case code(String)
    case webOTTHash(String)
}

/// The values a move sets or checks; each move reads the ones its data names.
public struct AccessMoveValues: Sendable, Equatable {
    public var now: Int
    public var mpinId: String?
    public var userId: String?
    public var authOTTHash: String?
    /// For `recentlyAuthenticated`: seconds since `authenticate`.
    public var window: Int?

    public init(now: Int, mpinId: String? = nil, userId: String? = nil, authOTTHash: String? = nil, window: Int? = nil) {
        self.now = now; self.mpinId = mpinId; self.userId = userId; self.authOTTHash = authOTTHash; self.window = window
    }
}
