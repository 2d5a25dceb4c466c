import Foundation
import GRDB
import ZKPinWire

/// The local identity store: a SQLite file (GRDB) with mode 0600 in a 0700 folder. Every change
/// is one transaction, so an interrupted or failed command leaves the previous rows intact.
public final class IdentityStore: Sendable {
    public static let fileName = "identities.sqlite"

    public let path: String
    private let queue: DatabaseQueue

    /// Opens (creating when needed) `<home>/identities.sqlite`.
    public init(home: String) throws(ClientError) {
        let path = (home as NSString).appendingPathComponent(Self.fileName)
        self.path = path
        do {
            try Self.prepareFolder(home)
            try Self.prepareFile(path)
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(queue)
            // SQLite gives its journal files the database file's mode; set it again in case the
            // file existed with a wider one.
            chmod(path, 0o600)
        } catch let error as ClientError {
            throw error
        } catch {
            throw .storeUnavailable(path: path, reason: StoreErrorText.reason(error))
        }
    }

    /// The default home: `$ZKPIN_HOME`, else `$XDG_DATA_HOME/zkpin`, else `~/.local/share/zkpin`.
    public static func defaultHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let home = environment["ZKPIN_HOME"], !home.isEmpty { return home }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return (xdg as NSString).appendingPathComponent("zkpin")
        }
        let userHome = environment["HOME"] ?? NSHomeDirectory()
        return (userHome as NSString).appendingPathComponent(".local/share/zkpin")
    }

    private static func prepareFolder(_ home: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: home, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ClientError.storeUnavailable(path: home, reason: "it is a file, not a folder")
            }
            return
        }
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    /// Creates the database file with mode 0600 before SQLite opens it, so it is never readable
    /// by others, not even for a moment.
    private static func prepareFile(_ path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else {
            throw ClientError.storeUnavailable(path: path, reason: String(cString: strerror(errno)))
        }
        fchmod(fd, 0o600)
        close(fd)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "identity") { t in
                t.column("server", .text).notNull()
                t.column("userId", .text).notNull()
                t.column("deviceName", .text)
                t.column("serviceName", .text)
                t.column("curve", .text).notNull()
                t.column("state", .text).notNull()
                t.column("mpinId", .text)
                t.column("token", .text)
                t.column("pendingMpinId", .text)
                t.column("pendingRegOTT", .text)
                t.column("pendingExpires", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
                t.column("lastLoginAt", .datetime)
                t.primaryKey(["server", "userId"])
            }
        }
        // v2: the holder proof of the last successful login (issue 29, finding 1).
        migrator.registerMigration("v2") { db in
            try db.alter(table: "identity") { t in t.add(column: "holder", .text) }
        }
        // v3: the DVS key z of signing-capable identities (issue 25).
        migrator.registerMigration("v3") { db in
            try db.alter(table: "identity") { t in
                t.add(column: "signingKey", .text)
                t.add(column: "pendingSigningKey", .text)
            }
        }
        return migrator
    }

    private func read<T>(_ body: (Database) throws -> T) throws(ClientError) -> T {
        do { return try queue.read(body) } catch { throw .storeUnavailable(path: path, reason: StoreErrorText.reason(error)) }
    }

    private func write<T>(_ body: (Database) throws -> T) throws(ClientError) -> T {
        do { return try queue.write(body) } catch { throw .storeUnavailable(path: path, reason: StoreErrorText.reason(error)) }
    }

    // MARK: Queries

    public func all() throws(ClientError) -> [Identity] {
        try read { db in try Identity.order(Column("server"), Column("userId")).fetchAll(db) }
    }

    public func find(userId: String, server: String) throws(ClientError) -> Identity? {
        try read { db in try Identity.fetchOne(db, key: ["server": server, "userId": userId]) }
    }

    public func identities(server: String) throws(ClientError) -> [Identity] {
        try read { db in try Identity.filter(Column("server") == server).order(Column("userId")).fetchAll(db) }
    }

    public func identities(userId: String) throws(ClientError) -> [Identity] {
        try read { db in try Identity.filter(Column("userId") == userId).order(Column("server")).fetchAll(db) }
    }

    // MARK: Changes

    /// Records a registration the server has just started. An existing token stays usable
    /// until `completeRegistration` replaces it.
    public func beginRegistration(
        server: String, userId: String, deviceName: String?, serviceName: String?,
        curve: String, mpinId: String, regOTT: String, expires: String, signingKey: String? = nil,
        now: Date = Date()
    ) throws(ClientError) {
        try write { db in
            if var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]) {
                identity.pendingSigningKey = signingKey
                identity.pendingMpinId = mpinId
                identity.pendingRegOTT = regOTT
                identity.pendingExpires = expires
                identity.deviceName = deviceName ?? identity.deviceName
                identity.serviceName = serviceName ?? identity.serviceName
                if !identity.canSignIn {
                    identity.state = .startedRegistration
                    identity.curve = curve
                }
                identity.updatedAt = now
                try identity.update(db)
            } else {
                var identity = Identity(
                    server: server, userId: userId, deviceName: deviceName, serviceName: serviceName,
                    curve: curve, state: .startedRegistration, pendingMpinId: mpinId,
                    pendingRegOTT: regOTT, pendingExpires: expires, createdAt: now, updatedAt: now
                )
                identity.pendingSigningKey = signingKey
                try identity.insert(db)
            }
        }
    }

    /// Notes that the server activated the pending registration `mpinId`.
    public func markActivated(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try write { db in
            guard var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]),
                identity.pendingMpinId == mpinId, !identity.canSignIn
            else { return }
            identity.state = .activated
            identity.updatedAt = now
            try identity.update(db)
        }
    }

    /// Stores the token of the pending registration `mpinId` and clears the pending fields,
    /// in one transaction. Returns false (and changes nothing) when that registration is no
    /// longer the pending one, e.g. a newer `register` replaced it meanwhile.
    @discardableResult
    public func completeRegistration(
        server: String, userId: String, mpinId: String, token: String, curve: String, holder: String? = nil,
        now: Date = Date()
    ) throws(ClientError) -> Bool {
        try write { db in
            guard var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]),
                identity.pendingMpinId == mpinId
            else { return false }
            identity.mpinId = mpinId
            identity.token = token
            identity.signingKey = identity.pendingSigningKey
            identity.pendingSigningKey = nil
            identity.holder = holder  // the new mpinId's proof (given with share 1), never another's
            identity.curve = curve
            identity.state = .registered
            identity.pendingMpinId = nil
            identity.pendingRegOTT = nil
            identity.pendingExpires = nil
            identity.updatedAt = now
            try identity.update(db)
            return true
        }
    }

    /// Forgets a pending registration the server refused or let expire (the token, if any,
    /// stays).
    public func dropPendingRegistration(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try write { db in
            guard var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]),
                identity.pendingMpinId == mpinId
            else { return }
            identity.pendingMpinId = nil
            identity.pendingRegOTT = nil
            identity.pendingExpires = nil
            if !identity.canSignIn && identity.state != .blocked && identity.state != .revoked { identity.state = .invalid }
            identity.updatedAt = now
            try identity.update(db)
        }
    }

    /// The server blocked `mpinId`: the row goes to state BLOCKED, so that `zkpin users` explains
    /// what happened and logins ask the server before any PIN prompt. The token stays (M-Pin
    /// clients usually delete it): without the PIN it proves nothing, the server refuses it
    /// while the identity is blocked, and it is what makes an operator's `admin unblock` useful.
    public func markBlocked(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try write { db in
            guard var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]),
                identity.mpinId == mpinId
            else { return }
            identity.state = .blocked
            identity.updatedAt = now
            try identity.update(db)
        }
    }

    /// The server refused `mpinId` as revoked or unknown (403): keep the row and its token (the
    /// server decides, and a token proves nothing by itself) in state REVOKED, so that later
    /// logins say so without asking for a PIN and `zkpin users` shows it.
    public func markRevoked(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try write { db in
            guard var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]),
                identity.mpinId == mpinId, identity.state == .registered
            else { return }
            identity.state = .revoked
            identity.updatedAt = now
            try identity.update(db)
        }
    }

    /// The server answered pass 1 again for a BLOCKED or REVOKED `mpinId` (an operator unblocked
    /// or reinstated it): REGISTERED again, with the token it kept.
    public func markReinstated(server: String, userId: String, mpinId: String, now: Date = Date()) throws(ClientError) {
        try write { db in
            guard var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]),
                identity.mpinId == mpinId, identity.token != nil,
                identity.state == .blocked || identity.state == .revoked
            else { return }
            identity.state = .registered
            identity.updatedAt = now
            try identity.update(db)
        }
    }

    /// Replaces the token of `mpinId` after a change of PIN; false (nothing changed) when the
    /// identity no longer holds that mpinId or cannot sign in.
    @discardableResult
    public func replaceToken(
        server: String, userId: String, mpinId: String, token: String,
        now: Date = Date()
    ) throws(ClientError) -> Bool {
        try write { db in
            guard var identity = try Identity.fetchOne(db, key: ["server": server, "userId": userId]),
                identity.mpinId == mpinId, identity.canSignIn
            else { return false }
            identity.token = token
            identity.updatedAt = now
            try identity.update(db)
            return true
        }
    }

    public func recordLogin(server: String, userId: String, holder: String? = nil, now: Date = Date()) throws(ClientError) {
        try write { db in
            try db.execute(
                sql: "UPDATE identity SET lastLoginAt = ?, updatedAt = ?, holder = coalesce(?, holder) WHERE server = ? AND userId = ?",
                arguments: [now, now, holder, server, userId])
        }
    }

    /// Deletes the identity `userId` (on `server`, or on every server when nil); returns the
    /// rows deleted.
    @discardableResult
    public func delete(userId: String, server: String?) throws(ClientError) -> Int {
        try write { db in
            if let server {
                return try Identity.filter(Column("server") == server && Column("userId") == userId).deleteAll(db)
            }
            return try Identity.filter(Column("userId") == userId).deleteAll(db)
        }
    }
}
