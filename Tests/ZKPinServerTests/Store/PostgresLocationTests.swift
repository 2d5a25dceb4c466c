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

    @Test func takesTheUnixSocketAsLibpqWritesIt() throws {
        let query = try PostgresLocation(url: "postgres://zk@/site?host=/run/postgresql", environment: [:])
        #expect(query.socketDirectory == "/run/postgresql" && query.host == "" && query.database == "site" && query.password == nil)
        #expect(query.socketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(query.display == "postgres://zk@:5432/site?host=/run/postgresql")
        #expect(query.address == "/run/postgresql/.s.PGSQL.5432")
        let withPort = try PostgresLocation(url: "postgresql://zk@:6543/site?host=/tmp/pg", environment: [:])
        #expect(withPort.socketPath == "/tmp/pg/.s.PGSQL.6543")
        let encoded = try PostgresLocation(url: "postgres://zk@%2Fvar%2Frun%2Fpostgresql/site", environment: [:])
        #expect(encoded.socketDirectory == "/var/run/postgresql" && encoded.host == "" && encoded.database == "site")
        // The display form parses back to the same place.
        #expect(try PostgresLocation(url: withPort.display, environment: [:]) == withPort)
        let tcp = try PostgresLocation(url: "postgres://zk@db.example/site", environment: [:])
        #expect(tcp.socketDirectory == nil && tcp.socketPath == nil && tcp.address == "db.example:5432")
    }

    @Test func socketErrorsSayWhatToWrite() {
        let relative = #expect(throws: PostgresLocation.Invalid.self) { try PostgresLocation(url: "postgres://zk@/db?host=run/pg", environment: [:]) }
        #expect(relative?.description.contains("absolute path") == true, "\(String(describing: relative))")
        let long = #expect(throws: PostgresLocation.Invalid.self) {
            try PostgresLocation(url: "postgres://zk@/db?host=/" + String(repeating: "d", count: 100), environment: [:])
        }
        #expect(long?.description.contains("107 bytes") == true, "\(String(describing: long))")
        let other = #expect(throws: PostgresLocation.Invalid.self) {
            try PostgresLocation(url: "postgres://zk@h/db?sslmode=require", environment: [:])
        }
        #expect(other?.description.contains("sslmode is not supported") == true, "\(String(describing: other))")
    }

    @Test func refusesPasswordsInTheURLAndBadURLs() {
        for bad in [
            "postgres://zk:pw@host/db", "mysql://zk@host/db", "postgres://host/db", "postgres://zk@host/a/b",
            "postgres://zk@host/db?sslmode=require", "/var/lib/zkpin.sqlite",
            "postgres://zk@/db", "postgres://zk@/db?host=relative/dir", "postgres://zk@host/db?host=/run/postgresql",
            "postgres://zk@/db?host=/a&host=/b", "postgres://zk@%2Fa/db?host=/b", "postgres://zk@/db?host=/a&sslmode=disable",
            "postgres://zk@/db?host=", "postgres://zk@/db?host=/" + String(repeating: "d", count: 100)
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
