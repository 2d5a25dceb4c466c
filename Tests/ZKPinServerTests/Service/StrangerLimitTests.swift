import Foundation
import Logging
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// Findings 4, 5 and 6 of issue 16: limits a stranger who knows only an mpinId or an e-mail
/// address could use up for its owner. The stranger and the owner come from different
/// addresses (through a trusted proxy), as they would on the Internet.
@Suite(.serialized) struct StrangerLimitTests {
    static func server(permits: Bool = false) async throws -> LiveServer {
        try await LiveServer.start { o in
            o.trustedProxy = "127.0.0.1"
            o.permits = permits
        }
    }

    @Test func fortyStrangerDTA2RequestsDoNotLockTheOwnerOut() async throws {
        let live = try await Self.server(permits: true)
        defer { live.stop() }
        let owner = FromAddress(inner: live.transport, address: "198.51.100.7")
        let stranger = FromAddress(inner: live.transport, address: "203.0.113.66")
        let user = try await TestUser.register(
            owner, email: "olga@example.com", pin: 2580, outbox: live.harness.outbox,
            usePermits: true)
        #expect(try await user.login(owner).status == 200)
        // The stranger asks the relying party for signed permit queries and sends them to D-TA 2.
        var dta2Statuses: [Int] = []
        var query = ""
        for round in 0..<40 {
            let p1 = try await stranger.get("/rps/timePermit/\(user.mpinId)")
            if p1.status == 200 { query = try p1.json(TimePermitResponse.self).params ?? "" }
            #expect(p1.status == 200 || p1.status == 429, "round \(round): \(p1.text)")
            dta2Statuses.append(try await stranger.get("/dta2/timePermit?\(query)").status)
        }
        #expect(dta2Statuses.contains(200))
        // The owner still logs in (a permit from D-TA 2 included), again and again.
        for round in 0..<5 {
            let r = try await user.login(owner)
            #expect(r.status == 200, "round \(round): \(r.text)")
        }
    }

    @Test func aSignedClientSecretQueryAnswersOnlyAFewTimes() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            let user = try await TestUser.register(t, email: "pia@example.com", pin: 1470, outbox: h.outbox)
            // A query as the relying party signs it after checking the regOTT (as if read from a
            // log), a second after the one the registration used.
            h.clock.advance(1)
            let signer = DTA2Signer(key: try SecretFile.load(h.dir + "/dta2.key"))
            let hashed = Hex.encode(user.suite.hashID(user.id))
            let query = signer.query(kind: "clientSecret", hashedID: hashed, date: nil, now: h.clock.now)
            var statuses: [Int] = []
            for _ in 0..<6 { statuses.append(try await t.get("/dta2/clientSecret?\(query)").status) }
            #expect(statuses == [200, 200, 200, 429, 429, 429], "\(statuses)")
        }
    }

    @Test func tenStrangerRegistrationsDoNotStopTheOwnersOwn() async throws {
        let live = try await Self.server()
        defer { live.stop() }
        let stranger = FromAddress(inner: live.transport, address: "203.0.113.66")
        var statuses: [Int] = []
        for _ in 0..<10 {
            statuses.append(try await stranger.json("PUT", "/rps/user", RegisterRequest(userId: "quinn@example.com", deviceName: "x")).status)
        }
        // The stranger's own count runs out...
        #expect(statuses.filter { $0 == 200 }.count == 5, "\(statuses)")
        #expect(statuses.suffix(5).allSatisfy { $0 == 429 }, "\(statuses)")
        // ...the owner's does not: they register, activate and log in.
        let owner = FromAddress(inner: live.transport, address: "198.51.100.7")
        let user = try await TestUser.register(owner, email: "quinn@example.com", pin: 9753, outbox: live.harness.outbox)
        #expect(try await user.login(owner).status == 200)
    }

    @Test func theDeviceNameIsShortPlainAndShownAsData() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            for bad in ["Click https://evil.example/reset now", "line\nbreak", "a\u{202E}gpj.exe", String(repeating: "x", count: 41)] {
                let r = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "rae@example.com", deviceName: bad))
                #expect(r.status == 400 && r.error?.message.contains("deviceName") == true, "\(bad.debugDescription): \(r.text)")
            }
            let ok = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "rae@example.com", deviceName: "Rae's phone (work)"))
            #expect(ok.status == 200, "\(ok.text)")
            let mail = try FileManager.default.contentsOfDirectory(atPath: h.outbox).filter { $0.hasSuffix(".eml") }
            #expect(mail.count == 1)
            let text = try String(contentsOfFile: h.outbox + "/" + mail[0], encoding: .utf8)
            #expect(text.contains("typed by whoever asked; not a message from us"))
            #expect(text.contains("Device name: \"Rae's phone (work)\""))
        }
    }

    @Test func pass1IsLimitedPerIdentityAndAddressNotForTheOwner() async throws {
        let live = try await Self.server()
        defer { live.stop() }
        let owner = FromAddress(inner: live.transport, address: "198.51.100.7")
        let stranger = FromAddress(inner: live.transport, address: "203.0.113.66")
        let user = try await TestUser.register(owner, email: "sam@example.com", pin: 8642, outbox: live.harness.outbox)
        let state = try user.suite.clientPass1(id: user.id, token: user.token, pin: 1, timePermit: nil, date: 0)
        var statuses: [Int] = []
        for _ in 0..<80 {
            statuses.append(try await stranger.json("POST", "/rps/pass1", Pass1Request(mpinId: user.mpinId, u: Hex.encode(state.u))).status)
        }
        // 60 a minute from one address for one identity; then 429, and no more challenge rows.
        #expect(statuses.prefix(60).allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(statuses.suffix(20).allSatisfy { $0 == 429 }, "\(statuses)")
        #expect(try await live.harness.rp.store.expiringRowCounts()["challenges"] ?? 0 <= 61)
        #expect(try await user.login(owner).status == 200)
    }

    @Test func thePass1LimitsAreSettings() async throws {
        let h = try await Harness.make { $0.pass1PerAddress = 3 }
        // A valid point: U is checked before the limits are counted (a refused point changes nothing).
        let suite = CurveID.bn254cx.suite
        let u = Hex.encode(try suite.clientSecretShare(master: suite.randomScalar(), id: [1, 2, 3]))
        try await h.run { t in
            var statuses: [Int] = []
            for _ in 0..<5 {
                statuses.append(try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: "abcd", u: u)).status)
            }
            #expect(
                statuses == [403, 403, 403, 429, 429] || statuses.prefix(3).allSatisfy { $0 != 429 } && statuses.suffix(2) == [429, 429],
                "\(statuses)")
        }
        let configuration = try await ServeConfiguration.resolve(
            flags: ["pass1-per-address": "100000", "pass1-per-identity": "5000"],
            configFile: nil, environment: [:])
        let options = try configuration.options()
        #expect(options.pass1PerAddress == 100_000 && options.pass1PerIdentity == 5_000)
    }
}

/// Finding 6 of issue 16: every page view was a row in `access_sessions`, from anyone, without
/// limit. Codes are now limited per client address, and purged after expiry.
@Suite struct AccessCodeLimitTests {
    @Test func accessCodesAreLimitedPerAddressAndPurged() async throws {
        let h = try await Harness.make()
        try await h.run { t in
            var statuses: [Int] = []
            for i in 0..<130 {
                statuses.append(
                    i.isMultiple(of: 2)
                        ? try await t.get("/").status : try await t.send("POST", "/rps/getAccessNumber", headers: [], body: nil).status)
            }
            #expect(statuses.prefix(120).allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(statuses.suffix(10).allSatisfy { $0 == 429 }, "\(statuses)")
            #expect(try await h.rp.store.expiringRowCounts()["access_sessions"] == 120)
            // A minute later the address may draw codes again; an hour past expiry they are gone.
            h.clock.advance(61)
            #expect(try await t.get("/").status == 200)
            h.clock.advance(2 * 3600)
            #expect(await ExpiryPurger(rp: h.rp, logger: .init(label: "test")).purgeOnce())
            #expect(try await h.rp.store.expiringRowCounts()["access_sessions"] == 0)
        }
    }
}
