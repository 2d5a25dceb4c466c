import Foundation
import Testing
import ZKPinClientCore

@testable import ZKPinKit

/// The Linux (and Keychain-less) store: one 0600 file, replaced whole on every change.
@Suite struct FileIdentityStoreTests {
    static func identity(_ user: String, token: String = "04ab") -> Identity {
        Identity(server: "https://a.example", userId: user, curve: "BLS12381", state: .registered, mpinId: "7b7d", token: token)
    }

    @Test func changesAreKeptInAPrivateFileReplacedWhole() throws {
        let dir = try Self.folder()
        let path = dir + "/nested/identities.json"
        let store = try FileIdentityStore(path: path)
        #expect(try store.all().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
        try store.modify(server: "https://a.example", userId: "ann@example.com") { $0 = Self.identity("ann@example.com") }
        try store.modify(server: "https://a.example", userId: "bob@example.com") { $0 = Self.identity("bob@example.com") }
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(dir + "/nested") == 0o700)
        let before = try Self.inode(path)
        try store.modify(server: "https://a.example", userId: "ann@example.com") { $0?.token = "04cd" }
        // Renamed over, not written in place: a crash leaves the old file or the new one.
        #expect(try Self.inode(path) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/nested") == ["identities.json"])
        let reopened = try FileIdentityStore(path: path)
        #expect(try reopened.all().map(\.userId).sorted() == ["ann@example.com", "bob@example.com"])
        #expect(try reopened.all().first { $0.userId == "ann@example.com" }?.token == "04cd")
        #expect(try reopened.delete(userId: "bob@example.com", server: nil) == 1)
        #expect(try store.all().map(\.userId) == ["ann@example.com"])
    }

    @Test func aTemporaryFileLeftOpenToOthersIsNotReused() throws {
        let dir = try Self.folder()
        let path = dir + "/identities.json"
        // As a crash between creating and renaming might leave it, but readable by all.
        FileManager.default.createFile(atPath: path + ".new", contents: Data("junk".utf8), attributes: [.posixPermissions: 0o644])
        let store = try FileIdentityStore(path: path)
        try store.modify(server: "https://a.example", userId: "ann@example.com") { $0 = Self.identity("ann@example.com") }
        #expect(try Self.mode(path) == 0o600)
        #expect(try store.all().count == 1)
    }

    @Test func anUnreadableFileIsAStorageErrorAndIsLeftAlone() throws {
        let dir = try Self.folder()
        let path = dir + "/identities.json"
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        let store = try FileIdentityStore(path: path)
        #expect(throws: ClientError.self) { try store.all() }
        #expect(throws: ClientError.self) {
            try store.modify(server: "https://a.example", userId: "ann@example.com") { $0 = Self.identity("ann@example.com") }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not json")
        do {
            _ = try store.all()
        } catch {
            guard case .storage = ZKPinKitError(error) else {
                Issue.record("an unreadable store is \(ZKPinKitError(error)), not a storage error")
                return
            }
        }
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("zkpinkit-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
    }

    static func inode(_ path: String) throws -> UInt64 {
        try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64 ?? 0
    }
}
