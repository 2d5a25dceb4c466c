import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Two `zkpin-server serve` processes (A and B) on one fresh PostgreSQL database, sharing one
/// data folder (keys and outbox), with D-TA 2 as a third process: a site behind a load
/// balancer, minus the balancer.
final class Cluster: @unchecked Sendable {
    let dir: String
    let database: String
    let keyFile: String
    let dta: ServerProcess
    var a: ServerProcess
    var b: ServerProcess
    var outbox: String { dir + "/rp/outbox" }

    init(restartable: Bool = false) async throws {
        dir = try TempDir.make()
        database = try await TestPostgres.freshDatabase(restartable: restartable)
        keyFile = dir + "/dta2.key"
        FileManager.default.createFile(atPath: keyFile, contents: Data((Tokens.fresh() + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let dtaPort = ServerProcess.freePort()
        dta = try ServerProcess(["dta", "--port", "\(dtaPort)", "--data", dir + "/dta2", "--curve", "bn254cx", "--key-file", keyFile], port: dtaPort)
        try await dta.waitUntilListening()
        // A first: its first start creates the keys in the shared folder, which B then reads.
        a = try await Self.instance(dir: dir, database: database, keyFile: keyFile, dta: dta.base)
        b = try await Self.instance(dir: dir, database: database, keyFile: keyFile, dta: dta.base)
    }

    static func instance(dir: String, database: String, keyFile: String, dta: String) async throws -> ServerProcess {
        let port = ServerProcess.freePort()
        let p = try ServerProcess(
            [
                "serve", "--port", "\(port)", "--data", dir + "/rp", "--curve", "bn254cx",
                "--database", database, "--dta2", dta, "--dta2-key-file", keyFile
            ], port: port)
        try await p.waitUntilListening()
        return p
    }

    var ta: SocketTransport { SocketTransport(base: a.base) }
    var tb: SocketTransport { SocketTransport(base: b.base) }

    /// A store on the cluster's database, for looking at what the instances wrote.
    func store() async throws -> Store {
        try await Store.postgres(try PostgresLocation(url: database), maxConnections: 2, patience: TestPostgres.patience)
    }

    func stop() { a.stop(); b.stop(); dta.stop() }

    /// `zkpin_verifications_total` of one instance's /metrics.
    static func verifications(_ t: SocketTransport) async throws -> Int {
        let text = try await t.get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix("zkpin_verifications_total ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }
}

/// A browser login where the page and the client may talk to different instances.
enum SplitLogin {
    /// The page (on `page`) shows a code; the client logs in with it through `client`; the
    /// page turns to `authenticate` and trades its tokens for a session cookie. Returns the cookie.
    static func signIn(page: SocketTransport, client: SocketTransport, user: TestUser) async throws -> String {
        let drawn = try await page.send("POST", "/rps/getAccessNumber", headers: [], body: nil)
        let access = try drawn.json(AccessNumberResponse.self)
        func status() async throws -> AccessResponse {
            try await page.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT)).json(AccessResponse.self)
        }
        let r2 = try await user.pass12(client, wid: access.accessNumber)
        #expect(r2.status == 200, "\(r2.text)")
        let afterPass2 = try await status()
        #expect(afterPass2.status == .user && afterPass2.userId == user.email)
        let authOTT = try r2.json(Pass2Response.self).authOTT
        async let answer = client.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: authOTT))
        var seen: AccessResponse? = nil
        for _ in 0..<100 {
            let s = try await status()
            if s.status == .authenticate { seen = s; break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let taken = try #require(seen)
        #expect(try await answer.status == 200)
        let session = try await page.form(
            "/session", ["webOTT": access.webOTT, "authOTT": taken.authOTT ?? ""],
            headers: [("Origin", page.base), try #require(drawn.pageCookie)])
        #expect(session.status == 303)
        let setCookie = try #require(session.header("Set-Cookie"))
        return String(setCookie.split(separator: ";")[0])
    }

    /// Whether `cookie` opens /account as `email` on `t`.
    static func isSignedIn(_ t: SocketTransport, cookie: String, as email: String) async throws -> Bool {
        let account = try await t.get("/account", headers: [("Cookie", cookie)])
        return account.status == 200 && account.text.contains("Signed in as \(email)")
    }
}
