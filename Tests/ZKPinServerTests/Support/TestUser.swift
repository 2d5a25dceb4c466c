import Foundation
import Testing
import ZKPinProtocol
import ZKPinWire

@testable import ZKPinServer

/// The client side of the flows, written against the wire only (like the zkpin client).
struct TestUser: Sendable {
    let email: String
    let mpinId: String
    let token: [UInt8]
    let pin: Int
    let suite: any MPinSuite
    let usePermits: Bool
    /// CS = share 1 + share 2 (kept for tests that sign with a DVS identity).
    var clientSecret: [UInt8] = []
    /// The holder proof given with share 1.
    var registrationHolder: String? = nil

    var id: [UInt8] { Hex.decode(mpinId)! }

    /// register → mail → activation page → code → share 1 + share 2 → token.
    static func register(
        _ t: any Transport, email: String, pin: Int, outbox: String, curve: CurveID = .bn254cx,
        usePermits: Bool = false, device: String = "laptop", dvsPublicKey: [UInt8]? = nil
    ) async throws -> TestUser {
        let reg = try await t.json(
            "PUT", "/rps/user", RegisterRequest(userId: email, deviceName: device, pa: dvsPublicKey.map(Hex.encode))
        ).json(RegisterResponse.self)
        // Not activated yet: 401.
        #expect(try await t.get("/rps/signature/\(reg.mpinId)", headers: [("X-ZKPin-RegOTT", reg.regOTT)]).status == 401)
        let link = try Outbox.activationLink(in: outbox, to: email)
        let path = String(link[link.range(of: "/mpinActivate")!.lowerBound...])
        let page = try await t.get(path)
        #expect(page.status == 200)
        #expect(page.text.contains(email))
        let code = try #require(Tokens.confirmationCode(regOTT: reg.regOTT))
        let confirmed = try await t.form(path, ["code": code.lowercased().replacingOccurrences(of: "-", with: "")])
        #expect(confirmed.status == 200)
        #expect(confirmed.text.contains("id=\"activated\""))
        let sig = try await t.get("/rps/signature/\(reg.mpinId)", headers: [("X-ZKPin-RegOTT", reg.regOTT)])
        #expect(sig.status == 200, "\(sig.text)")
        let share1 = try sig.json(SignatureResponse.self)
        let settings = try await t.get("/rps/clientSettings").json(ClientSettings.self)
        let share2 = try await t.get("\(settings.dta2URL)/clientSecret?\(share1.params)").json(ClientSecretResponse.self)
        let suite = curve.suite
        let cs = try suite.addG1(Hex.decode(share1.clientSecretShare)!, Hex.decode(share2.clientSecret)!)
        let token = try suite.extractPIN(clientSecret: cs, id: Hex.decode(reg.mpinId)!, pin: pin)
        return TestUser(
            email: email, mpinId: reg.mpinId, token: token, pin: pin, suite: suite, usePermits: usePermits, clientSecret: cs,
            registrationHolder: share1.holder)
    }

    /// pass 1 and pass 2 with `pin`; returns the pass-2 reply.
    /// Pass 1 names the page's code (`WID`) as zkpin does, unless `widAtPass1` is false (as
    /// other M-Pin clients do).
    /// With `complete`, pass 2 finishes the login itself (answers as `/rps/authenticate`).
    /// With `otp`, pass 2 asks for a one-time code (for `service`).
    func pass12(
        _ t: any Transport, pin: Int? = nil, wid: String = "0", widAtPass1: Bool = true, complete: Bool? = nil, otp: Bool? = nil,
        service: String? = nil, holder: String? = nil
    ) async throws -> Reply {
        var permit: [UInt8]? = nil
        var date = 0
        if usePermits {
            let p1 = try await t.get("/rps/timePermit/\(mpinId)", headers: holder.map { [("X-ZKPin-Holder", $0)] } ?? [])
                .json(TimePermitResponse.self)
            let settings = try await t.get("/rps/clientSettings").json(ClientSettings.self)
            let p2 = try await t.get("\(settings.dta2URL)/timePermit?\(p1.params ?? "")").json(TimePermitResponse.self)
            permit = try suite.addG1(Hex.decode(p1.timePermit)!, Hex.decode(p2.timePermit)!)
            date = p1.date
        }
        let state = try suite.clientPass1(id: id, token: token, pin: pin ?? self.pin, timePermit: permit, date: date)
        let r1 = try await t.json(
            "POST", "/rps/pass1",
            Pass1Request(
                mpinId: mpinId, u: Hex.encode(state.u), ut: state.ut.map { Hex.encode($0) },
                wid: widAtPass1 && wid != "0" ? wid : nil, holder: holder))
        guard r1.status == 200 else { return r1 }
        let p1 = try r1.json(Pass1Response.self)
        let v = try suite.clientPass2(state, y: Hex.decode(p1.y)!)
        return try await t.json(
            "POST", "/rps/pass2",
            Pass2Request(
                mpinId: mpinId, v: Hex.encode(v), wid: wid, challenge: p1.challenge, otp: otp, complete: complete, service: service))
    }

    /// A whole login without a browser (WID "0").
    func login(_ t: any Transport, pin: Int? = nil, holder: String? = nil) async throws -> Reply {
        let r2 = try await pass12(t, pin: pin, holder: holder)
        guard r2.status == 200 else { return r2 }
        return try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
    }

    /// A pass 1 for this mpinId with a random U and nothing after it: what a stranger who
    /// knows only the mpinId can send.
    func strangerPass1(_ t: any Transport) async throws -> Reply {
        let fake = try suite.extractPIN(clientSecret: try suite.clientSecretShare(master: suite.randomScalar(), id: id), id: id, pin: 1234)
        let state = try suite.clientPass1(id: id, token: fake, pin: 1234, timePermit: nil, date: 0)
        return try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: mpinId, u: Hex.encode(state.u)))
    }

    /// Random U and V: what someone who knows only the mpinId can send.
    func randomAttempt(_ t: any Transport) async throws -> Reply {
        let fake = try suite.extractPIN(clientSecret: try suite.clientSecretShare(master: suite.randomScalar(), id: id), id: id, pin: 1234)
        let state = try suite.clientPass1(id: id, token: fake, pin: 1234, timePermit: nil, date: 0)
        let r1 = try await t.json("POST", "/rps/pass1", Pass1Request(mpinId: mpinId, u: Hex.encode(state.u)))
        guard r1.status == 200 else { return r1 }
        let p1 = try r1.json(Pass1Response.self)
        let v = try suite.clientPass2(state, y: Hex.decode(p1.y)!)
        let r2 = try await t.json("POST", "/rps/pass2", Pass2Request(mpinId: mpinId, v: Hex.encode(v), wid: "0", challenge: p1.challenge))
        guard r2.status == 200 else { return r2 }
        return try await t.json("POST", "/rps/authenticate", AuthenticateRequest(authOTT: try r2.json(Pass2Response.self).authOTT))
    }
}

enum Outbox {
    struct NoMail: Error {}

    /// The first mail in `dir` that contains `text`, waiting up to 2 s for one sent in the
    /// background; "" when none came.
    static func mail(in dir: String, containing text: String) async throws -> String {
        for _ in 0..<100 {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            if let found = try files.map({ try String(contentsOfFile: dir + "/" + $0, encoding: .utf8) }).first(where: { $0.contains(text) }) {
                return found
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return ""
    }
    /// The activation link of the newest mail to `email`.
    static func activationLink(in dir: String, to email: String) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".eml") }.sorted()
        for file in files.reversed() {
            let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
            guard text.contains("\r\nTo: \(email)\r\n") else { continue }
            if let line = text.components(separatedBy: "\r\n").first(where: { $0.contains("/mpinActivate?") }) {
                return line.trimmingCharacters(in: .whitespaces)
            }
        }
        throw NoMail()
    }
}
