import Foundation
import ZKPinClientCore

/// Identities in one JSON file of mode 0600 (Linux, or wherever an app has no Keychain): every
/// change rewrites the whole file atomically (a new file renamed over the old one), so a crash
/// leaves either the old identities or the new ones, never half of each.
public final class FileIdentityStore: IdentityStore, @unchecked Sendable {
    public let path: String
    public var location: String { path }
    /// Serialises this process's transactions (another process's are not expected: one app).
    private let lock = NSLock()

    /// `path`: the file (created on the first change); its folder is created with mode 0700.
    public init(path: String) throws(ClientError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storeUnavailable(path: path, reason: "its folder cannot be created (\(error.localizedDescription))")
        }
    }

    public func all() throws(ClientError) -> [Identity] {
        lock.lock()
        defer { lock.unlock() }
        return try load()
    }

    public func modify<Result>(server: String, userId: String, _ change: (inout Identity?) -> Result) throws(ClientError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        var identities = try load()
        let (result, changed) = IdentityList.modify(&identities, server: server, userId: userId, change)
        if changed { try save(identities) }
        return result
    }

    public func delete(userId: String, server: String?) throws(ClientError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        var identities = try load()
        let removed = IdentityList.delete(&identities, userId: userId, server: server)
        if removed > 0 { try save(identities) }
        return removed
    }

    private func load() throws(ClientError) -> [Identity] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode([Identity].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .storeUnavailable(path: path, reason: "it is not a readable identity file (\(error.localizedDescription))")
        }
    }

    /// Writes a temporary file of mode 0600 next to the store, then renames it over the store.
    private func save(_ identities: [Identity]) throws(ClientError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let temporary = path + ".new"
        do {
            let data = try encoder.encode(identities)
            // Created 0600 before any byte is written: never readable by others, not even briefly
            // (a new file: one left by an earlier crash keeps whatever mode it had).
            unlink(temporary)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
            guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
            let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == data.count, synced else { throw CocoaError(.fileWriteOutOfSpace) }
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            unlink(temporary)
            throw .storeUnavailable(path: path, reason: "it cannot be written (\(error.localizedDescription))")
        }
    }
}
