// Each stored type read back from its row, once for both databases.

extension PendingRegistration {
    init(row r: SQLRow) throws {
        self.init(
            mpinId: try r.text("mpin_id"), userId: try r.text("user_id"), device: try r.text("device"),
            regOTTHash: try r.text("reg_ott_hash"), codeHash: try r.text("code_hash"), created: try r.int("created"),
            expires: try r.int("expires"), address: try r.text("address"), activated: try r.optionalInt("activated"))
    }
}

extension Identity {
    init(row r: SQLRow) throws {
        self.init(
            mpinId: try r.text("mpin_id"), userId: try r.text("user_id"), device: try r.text("device"),
            state: IdentityState(rawValue: try r.text("state")) ?? .revoked, failedAttempts: try r.int("failed"),
            created: try r.int("created"), lastLogin: try r.optionalInt("last_login"))
    }
}

extension AttemptResult {
    init(row r: SQLRow) throws {
        self.init(failedAttempts: try r.int("failed"), state: IdentityState(rawValue: try r.text("state")) ?? .revoked)
    }
}

extension Challenge {
    init(row r: SQLRow) throws {
        self.init(
            id: try r.text("id"), mpinId: try r.text("mpin_id"), u: try r.bytes("u"), ut: try r.optionalBytes("ut"), y: try r.bytes("y"),
            date: try r.int("date"), created: try r.int("created"), expires: try r.int("expires"))
    }
}

extension AccessSession {
    init(row r: SQLRow) throws {
        self.init(
            webOTTHash: try r.text("web_ott_hash"), code: try r.text("code"),
            status: AccessSession.Status(rawValue: try r.text("status")) ?? .used, mpinId: try r.optionalText("mpin_id"),
            userId: try r.optionalText("user_id"), authOTTHash: try r.optionalText("auth_ott_hash"), takenUp: try r.bool("taken_up"),
            created: try r.int("created"), expires: try r.int("expires"), authenticatedAt: try r.optionalInt("authenticated_at"),
            site: try r.optionalText("site"))
    }
}

extension AuthToken {
    init(row r: SQLRow) throws {
        self.init(
            hash: try r.text("hash"), mpinId: try r.text("mpin_id"), userId: try r.text("user_id"),
            outcome: AuthToken.Outcome(rawValue: try r.text("outcome")) ?? .invalidToken,
            attemptsLeft: try r.int("attempts_left"), accessCode: try r.optionalText("access_code"), expires: try r.int("expires"))
    }
}

extension WebSession {
    init(row r: SQLRow) throws {
        self.init(
            hash: try r.text("hash"), mpinId: try r.text("mpin_id"), userId: try r.text("user_id"), created: try r.int("created"),
            expires: try r.int("expires"))
    }
}

extension AuditEvent {
    init(row r: SQLRow) throws {
        self.init(
            time: try r.int("time"), kind: try r.text("kind"), userId: try r.optionalText("user_id"), mpinId: try r.optionalText("mpin_id"),
            address: try r.optionalText("address"), detail: try r.text("detail"))
    }
}
