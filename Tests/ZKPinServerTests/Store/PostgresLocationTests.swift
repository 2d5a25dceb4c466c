import Foundation
import Testing

@testable import ZKPinServer

/// `--database` URLs and password sources (no server needed).
@Suite struct PostgresLocationTests {
    @Test func parsesTheURLAndTakesPGPASSWORD() throws {
        let l = try PostgresLocation(url: "postgres://zk@db.example:6543/site", environment: ["PGPASSWORD": "s3cret"])
        #expect(l.user == "zk" && l.host == "db.example" && l.port == 6543 && l.database == "site" && l.password == "s3cret")
        #expect(l.display == "postgres://zk@db.example:6543/site")
        let d = try PostgresLocation(url: "postgresql://zk@127.0.0.1", environment: [:])
        #expect(d.port == 5432 && d.database == "zk" && d.password == nil)
    }

    @Test func refusesPasswordsInTheURLAndBadURLs() {
        for bad in [
            "postgres://zk:pw@host/db", "mysql://zk@host/db", "postgres://host/db", "postgres://zk@host/a/b",
            "postgres://zk@host/db?sslmode=require", "/var/lib/zkpin.sqlite"
        ] {
            #expect(throws: PostgresLocation.Invalid.self, "\(bad)") { try PostgresLocation(url: bad, environment: [:]) }
        }
    }

    @Test func passwordFileMustBeOwnerOnly() throws {
        let dir = try TempDir.make()
        let file = dir + "/pw"
        FileManager.default.createFile(atPath: file, contents: Data("from-file\n".utf8), attributes: [.posixPermissions: 0o600])
        let l = try PostgresLocation(url: "postgres://zk@host/db", passwordFile: file, environment: ["PGPASSWORD": "env"])
        #expect(l.password == "from-file")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let error = #expect(throws: PostgresLocation.Invalid.self) {
            try PostgresLocation(url: "postgres://zk@host/db", passwordFile: file, environment: [:])
        }
        #expect(error?.description.contains("chmod 600") == true)
        #expect(throws: PostgresLocation.Invalid.self) {
            try PostgresLocation(url: "postgres://zk@host/db", passwordFile: dir + "/missing", environment: [:])
        }
    }
}
