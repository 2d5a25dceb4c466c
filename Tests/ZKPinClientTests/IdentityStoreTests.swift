import Foundation
import Testing
import ZKPinClient
import ZKPinWire

@Suite struct IdentityStoreTests {
    let server = "http://127.0.0.1:8080"

    private func begin(
        _ store: SQLiteIdentityStore, user: String = "alice@example.com", server: String? = nil,
        mpinId: String
    ) throws {
        try store.beginRegistration(
            server: server ?? self.server, userId: user, deviceName: "laptop",
            serviceName: "Demo", curve: "bls12-381", mpinId: mpinId,
            regOTT: "00ff", expires: "2099-01-01T00:00:00Z")
    }

    @Test func createsItsFileWithMode0600InA0700Folder() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        let home = folder.path + "/nested/home"
        let store = try SQLiteIdentityStore(home: home)
        try begin(store, mpinId: "aa")
        let fileMode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: home)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
        #expect(store.path == home + "/identities.sqlite")
    }

    @Test func tightensAnExistingFileToMode0600() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let path = folder.file(SQLiteIdentityStore.fileName)
        FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644])
        _ = try SQLiteIdentityStore(home: folder.path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aRegistrationGoesFromStartedToRegisteredAndSurvivesReopening() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        do {
            let store = try SQLiteIdentityStore(home: folder.path)
            try begin(store, mpinId: "aa")
            #expect(try store.find(userId: "alice@example.com", server: server)?.state == .startedRegistration)
            try store.markActivated(server: server, userId: "alice@example.com", mpinId: "aa")
            #expect(try store.find(userId: "alice@example.com", server: server)?.state == .activated)
            #expect(
                try store.completeRegistration(
                    server: server, userId: "alice@example.com", mpinId: "aa",
                    token: "04beef", curve: "bls12-381"))
        }
        let reopened = try SQLiteIdentityStore(home: folder.path)
        let identity = try #require(try reopened.find(userId: "alice@example.com", server: server))
        #expect(identity.state == .registered)
        #expect(identity.token == "04beef")
        #expect(identity.mpinId == "aa")
        #expect(!identity.hasPendingRegistration)
        #expect(identity.canSignIn)
    }

    @Test func aNewRegistrationKeepsTheWorkingTokenUntilItCompletes() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        let store = try SQLiteIdentityStore(home: folder.path)
        try begin(store, mpinId: "aa")
        try store.completeRegistration(server: server, userId: "alice@example.com", mpinId: "aa", token: "01", curve: "bls12-381")
        try begin(store, mpinId: "bb")
        var identity = try #require(try store.find(userId: "alice@example.com", server: server))
        #expect(identity.canSignIn && identity.token == "01" && identity.mpinId == "aa")
        #expect(identity.pendingMpinId == "bb")
        // A finished registration that is no longer the pending one changes nothing.
        #expect(
            try !store.completeRegistration(
                server: server, userId: "alice@example.com", mpinId: "cc",
                token: "02", curve: "bls12-381"))
        identity = try #require(try store.find(userId: "alice@example.com", server: server))
        #expect(identity.token == "01")
        try store.completeRegistration(server: server, userId: "alice@example.com", mpinId: "bb", token: "03", curve: "bls12-381")
        identity = try #require(try store.find(userId: "alice@example.com", server: server))
        #expect(identity.token == "03" && identity.mpinId == "bb" && !identity.hasPendingRegistration)
    }

    @Test func blockingMarksThatMpinIdOnlyAndAnUnblockReinstatesIt() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        let store = try SQLiteIdentityStore(home: folder.path)
        try begin(store, mpinId: "aa")
        try store.completeRegistration(server: server, userId: "alice@example.com", mpinId: "aa", token: "01", curve: "bls12-381")
        try store.markBlocked(server: server, userId: "alice@example.com", mpinId: "zz")
        #expect(try store.find(userId: "alice@example.com", server: server)?.state == .registered)
        try store.markBlocked(server: server, userId: "alice@example.com", mpinId: "aa")
        var identity = try #require(try store.find(userId: "alice@example.com", server: server))
        // The token stays (an operator's unblock makes it usable again); the state stops logins.
        #expect(identity.state == .blocked && identity.token == "01" && !identity.canSignIn)
        try store.markReinstated(server: server, userId: "alice@example.com", mpinId: "zz")
        #expect(try store.find(userId: "alice@example.com", server: server)?.state == .blocked)
        try store.markReinstated(server: server, userId: "alice@example.com", mpinId: "aa")
        identity = try #require(try store.find(userId: "alice@example.com", server: server))
        #expect(identity.state == .registered && identity.token == "01" && identity.canSignIn)
    }

    @Test func keepsOneRowPerIdentityAndServer() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        let store = try SQLiteIdentityStore(home: folder.path)
        try begin(store, mpinId: "aa")
        try begin(store, server: "http://127.0.0.2:9090", mpinId: "bb")
        try begin(store, user: "bob@example.com", mpinId: "cc")
        try begin(store, mpinId: "dd")
        #expect(try store.all().count == 3)
        #expect(try store.identities(userId: "alice@example.com").map(\.server) == [server, "http://127.0.0.2:9090"])
        #expect(try store.identities(server: server).map(\.userId) == ["alice@example.com", "bob@example.com"])
        #expect(try store.delete(userId: "alice@example.com", server: server) == 1)
        #expect(try store.identities(userId: "alice@example.com").map(\.server) == ["http://127.0.0.2:9090"])
        #expect(try store.delete(userId: "nobody@example.com", server: nil) == 0)
    }

    @Test func aFileInPlaceOfTheFolderIsReported() throws {
        let folder = TemporaryFolder(); defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder.file("home"), contents: Data("x".utf8))
        do {
            _ = try SQLiteIdentityStore(home: folder.file("home"))
            Issue.record("a file was used as the home folder")
        } catch {
            guard case .storeUnavailable = error else { Issue.record("\(error)"); return }
            #expect(error.exitCode == 2)
        }
    }

    @Test func theDefaultHomeFollowsTheEnvironment() {
        #expect(SQLiteIdentityStore.defaultHome(environment: ["ZKPIN_HOME": "/x", "HOME": "/h"]) == "/x")
        #expect(SQLiteIdentityStore.defaultHome(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/zkpin")
        #expect(SQLiteIdentityStore.defaultHome(environment: ["HOME": "/h"]) == "/h/.local/share/zkpin")
    }
}
