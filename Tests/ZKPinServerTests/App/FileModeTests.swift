import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Finding 9 of issue 16: in a data folder that already exists with mode 0755, every file the
/// server writes (database and its -wal/-shm, keys, mails) is 0600 all the same, even under
/// the common umask 022; and key files are written whole.
@Suite(.serialized) struct FileModeTests {
    @Test func everyFileIs0600InA0755Folder() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let dir = try TempDir.make()
        chmod(dir, 0o755)
        let h = try await Harness.make { $0.dataDirectory = dir }
        try await h.run { t in
            let user = try await TestUser.register(t, email: "uma@example.com", pin: 1234, outbox: dir + "/outbox")
            #expect(try await user.login(t).status == 200)
        }
        var checked: [String] = []
        let walker = try #require(FileManager.default.enumerator(atPath: dir))
        for case let name as String in walker {
            var status = stat()
            guard lstat(dir + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            #expect(status.st_mode & 0o777 == 0o600, "\(name) has mode \(String(status.st_mode & 0o777, radix: 8))")
            checked.append(name)
        }
        for expected in ["zkpin.sqlite", "zkpin.sqlite-wal", "zkpin.sqlite-shm", "dta1.master", "rps.key"] {
            #expect(checked.contains(expected), "\(expected) not among \(checked)")
        }
        #expect(checked.contains { $0.hasPrefix("outbox/") && $0.hasSuffix(".eml") }, "\(checked)")
        #expect(!checked.contains { $0.contains(".tmp") }, "\(checked)")
    }

    @Test func aKeyFileIsWrittenWholeAndNeverReplaced() throws {
        let dir = try TempDir.make()
        let path = dir + "/test.key"
        let first = try SecretFile.loadOrCreate(path) { [1, 2, 3] }
        let second = try SecretFile.loadOrCreate(path) { [9, 9, 9] }
        #expect(first == [1, 2, 3] && second == [1, 2, 3])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "010203\n")
        // A folder it cannot write to is an error, not a silently missing key.
        chmod(dir, 0o500)
        defer { chmod(dir, 0o700) }
        if getuid() != 0 {
            #expect(throws: (any Error).self) { try SecretFile.loadOrCreate(dir + "/other.key") { [4] } }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["test.key"])
    }
}
