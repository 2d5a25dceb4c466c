/// Push sign-ins: a sign-in page's request to the devices of the person an e-mail address
/// names, with the number the page shows and the three a device offers. A row is kept for
/// any address typed, known or not, so that both take the same work and the same answer.
extension Store {
    /// Stores `s`; an earlier request of the same page (its access code) still pending is
    /// replaced (a person who asks again answers the newest).
    public func insertPushSignIn(_ s: PushSignIn) async throws {
        try await transaction { tx in
            _ = try tx.run(
                "UPDATE push_signins SET state = \(PushSignIn.State.replaced.rawValue) WHERE code = \(s.code) AND state = \(PushSignIn.State.pending.rawValue)"
            )
            _ = try tx.run(
                """
                INSERT INTO push_signins(id, email, code, number, choices, site, state, created, expires, address)
                VALUES (\(s.id), \(s.email), \(s.code), \(s.number), \(s.choices.map(String.init).joined(separator: ",")),
                        \(s.site), \(s.state.rawValue), \(s.created), \(s.expires), \(s.address))
                """)
        }
    }

    /// The push sign-ins waiting for the person of `email` (lower case), oldest first.
    public func pendingPushSignIns(email: String, now: Int) async throws -> [PushSignIn] {
        try await driver.read(
            """
            SELECT * FROM push_signins WHERE email = \(email) AND state = \(PushSignIn.State.pending.rawValue) AND expires > \(now)
            ORDER BY created, id
            """
        ).map(PushSignIn.init(row:))
    }

    public func pushSignIn(id: String) async throws -> PushSignIn? {
        try await driver.readOne("SELECT * FROM push_signins WHERE id = \(id)").map(PushSignIn.init(row:))
    }

    /// pending → `state` for a live request, answered by `mpinId`; the request after, or nil
    /// when it was answered, replaced or expired first (one answer wins).
    public func answerPushSignIn(id: String, state: PushSignIn.State, mpinId: String, now: Int) async throws -> PushSignIn? {
        try await driver.writeOne(
            """
            UPDATE push_signins SET state = \(state.rawValue), answered_by = \(mpinId)
            WHERE id = \(id) AND state = \(PushSignIn.State.pending.rawValue) AND expires > \(now) RETURNING *
            """
        ).map(PushSignIn.init(row:))
    }
}

public struct PushSignIn: Sendable, Equatable {
    public enum State: String, Sendable {
        case pending
        /// The device chose the page's number: it signs in with the page's code.
        case matched
        /// The device chose another number: the page's code is denied.
        case denied
        /// "Not me" on the device.
        case notMe = "not_me"
        /// The page asked again; a newer request took this one's place.
        case replaced
    }
    public var id: String
    /// The e-mail address typed on the page, lower case (known or not).
    public var email: String
    /// The page's access code.
    public var code: String
    /// The number the page shows (10...99).
    public var number: Int
    /// What a device offers: the page's number and two others, in random order.
    public var choices: [Int]
    /// The site the code signs in to (an OpenID Connect client's name), nil for the service's page.
    public var site: String?
    public var state: State
    public var created: Int
    public var expires: Int
    public var answeredBy: String?
    /// The client address of the page that asked (said in the "Not me" mail).
    public var address: String?

    public init(
        id: String, email: String, code: String, number: Int, choices: [Int], site: String?, state: State = .pending, created: Int,
        expires: Int, answeredBy: String? = nil, address: String? = nil
    ) {
        self.id = id; self.email = email; self.code = code; self.number = number; self.choices = choices; self.site = site
        self.state = state; self.created = created; self.expires = expires; self.answeredBy = answeredBy; self.address = address
    }

    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), email: try r.text("email"), code: try r.text("code"), number: try r.int("number"),
            choices: try r.text("choices").split(separator: ",").compactMap { Int($0) }, site: try r.optionalText("site"),
            state: State(rawValue: try r.text("state")) ?? .replaced, created: try r.int("created"), expires: try r.int("expires"),
            answeredBy: try r.optionalText("answered_by"), address: try r.optionalText("address"))
    }
}

enum PushSignInSchema {
    static let changes: [SchemaChange] = [
        SchemaChange(version: 11, owner: "Push", summary: "push sign-ins with number matching", expiring: ["push_signins"]) { d in
            [
                """
                CREATE TABLE push_signins(
                    id TEXT PRIMARY KEY, email TEXT NOT NULL, code TEXT NOT NULL, number \(d.integer) NOT NULL, choices TEXT NOT NULL,
                    site TEXT, state TEXT NOT NULL, created \(d.integer) NOT NULL, expires \(d.integer) NOT NULL, answered_by TEXT,
                    address TEXT)
                """,
                "CREATE INDEX push_signins_email ON push_signins(email, state)",
                "CREATE INDEX push_signins_code ON push_signins(code)"
            ]
        }
    ]
}
