import Foundation
import GRDB
import ZKPinClientCore
import ZKPinWire

/// The local identity store: a SQLite file (GRDB) with mode 0600 in a 0700 folder. Every change
/// is one transaction, so an interrupted or failed command leaves the previous rows intact.
public final class SQLiteIdentityStore: IdentityStore {
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

    // MARK: IdentityStore

    public var location: String { path }

    public func all() throws(ClientError) -> [Identity] {
        try read { db in try Identity.order(Column("server"), Column("userId")).fetchAll(db) }
    }

    /// One write transaction: the row read, changed, and written back (or deleted, or inserted).
    public func modify<Result>(server: String, userId: String, _ change: (inout Identity?) -> Result) throws(ClientError) -> Result {
        try write { db in
            let before = try Identity.fetchOne(db, key: ["server": server, "userId": userId])
            var after = before
            let result = change(&after)
            switch (before, after) {
            case (nil, nil): break
            case (_, nil): _ = try Identity.deleteOne(db, key: ["server": server, "userId": userId])
            case (nil, let inserted?): try inserted.insert(db)
            case (let old?, let new?) where old != new: try new.update(db)
            default: break
            }
            return result
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

/// The SQLite rows of the identities (the store's table `identity`).
extension Identity: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "identity"
}
