import Foundation
import Testing
import ZKPinClient

/// `zkpin` against a real `zkpin-server` on loopback (issue 5, "Tests"). Skipped, with this
/// message, only when the server binary has not been built.
@Suite(
    .serialized,
    .enabled(
        if: Binaries.serverAvailable,
        "zkpin-server is not built beside the tests; run `swift build --product zkpin-server` (same --scratch-path) to run the end-to-end tests"))
struct EndToEndTests {
    @Test func registersByMailAndSignsThePageIn() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }

        // The whole `register`: it prints the code, waits with its spinner, then reads the PIN.
        let register = try ChildProcess(
            Binaries.client,
            [
                "register", "alice@example.com", "--server", server.base,
                "--device", "laptop", "--pin-stdin", "--allow-trivial-pin", "--wait", "60",
                "--home", home.path
            ])
        register.write("1234\n")
        register.closeInput()
        let code = try #require(await register.waitForOutput(#"Confirmation code: ([A-Z2-7]{4}-[A-Z2-7]{4})"#))
        // A wrong code is refused and leaves the registration pending; the printed one works.
        #expect(try await server.activate(email: "alice@example.com", code: "AAAA-AAAA") == 400)
        #expect(try await server.activate(email: "alice@example.com", code: code.lowercased()) == 200)
        #expect(await register.waitForExit() == 0, "\(register.standardError)")
        #expect(register.standardOutput.contains("Registered alice@example.com"))
        // The next step names the client as it was run (the demo's is not on PATH) and the command the page shows.
        #expect(
            register.standardOutput.contains("Sign in: run the command the sign-in page shows (\(Binaries.client) login 'URL#CODE';"),
            "\(register.standardOutput)")
        #expect(register.standardError.contains("mailed an activation link to alice@example.com"))

        let storePath = home.path + "/" + SQLiteIdentityStore.fileName
        #expect(try FileManager.default.attributesOfItem(atPath: storePath)[.posixPermissions] as? Int == 0o600)
        let users = try await home.users()
        #expect(users.count == 1)
        #expect(users.first?["state"] as? String == "REGISTERED")
        #expect(users.first?["server"] as? String == server.base)
        #expect(users.first?["pendingRegistration"] as? Bool == false)

        let (login, page) = try await home.login(on: server, pin: "1234")
        #expect(login.status == 0, "\(login.err)")
        #expect(login.err.contains("Signing in to"))
        #expect(login.err.contains("at \(server.base) as alice@example.com"))
        #expect(login.out.contains("Signed in to"))
        #expect(login.out.contains("as alice@example.com"))
        #expect(page.status == "authenticate")
        #expect(page.userId == "alice@example.com")
    }

    @Test func anInterruptedRegistrationIsFinishedByConfirm() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }

        let register = try ChildProcess(
            Binaries.client,
            [
                "register", "ivy@example.com", "--server", server.base,
                "--pin-stdin", "--home", home.path
            ])
        let code = try #require(await register.waitForOutput(#"Confirmation code: ([A-Z2-7]{4}-[A-Z2-7]{4})"#))
        register.terminate()
        #expect(try await home.users().first?["state"] as? String == "STARTED_REGISTRATION")

        #expect(try await server.activate(email: "ivy@example.com", code: code) == 200)
        let confirmed = try await home.run(["confirm", "ivy@example.com", "--pin-stdin", "--allow-trivial-pin"], input: "5678\n")
        #expect(confirmed.status == 0, "\(confirmed.err)")
        #expect(confirmed.out.contains("Confirmation code: \(code)"))
        let (login, page) = try await home.login(on: server, pin: "5678")
        #expect(login.status == 0, "\(login.err)")
        #expect(page.userId == "ivy@example.com")

        // Nothing is left to confirm now.
        let again = try await home.run(["confirm", "ivy@example.com", "--pin-stdin"], input: "5678\n")
        #expect(again.status == 2)
        #expect(again.err.contains("already registered"))
    }

    @Test func usesASeparateDTA2OnTheOtherCurveWithPermits() async throws {
        // D-TA 2 as its own process: clientSettings then names it by an absolute URL.
        let folder = TemporaryFolder("zkpin-e2e-dta2")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let keyFile = folder.file("dta2.key")
        FileManager.default.createFile(
            atPath: keyFile, contents: Data((String(repeating: "5a", count: 32) + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        let dtaPort = try TestServer.freePort()
        let dta = try ChildProcess(
            Binaries.server,
            [
                "dta", "--host", "127.0.0.1", "--port", String(dtaPort),
                "--data", folder.file("dta2"), "--curve", "bn254cx", "--key-file", keyFile
            ])
        defer { dta.terminate() }
        let dtaBase = try #require(await dta.waitForOutput(#"listening on (http://127\.0\.0\.1:[0-9]+)"#), "\(dta.standardError)")
        let server = try await TestServer(extraArguments: [
            "--curve", "bn254cx", "--permits", "on",
            "--dta2", dtaBase, "--dta2-key-file", keyFile
        ])
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }

        try await home.register("jo@example.com", on: server, pin: "0042")
        #expect(try await home.users().first?["curve"] as? String == "bn254cx")
        let (login, page) = try await home.login(on: server, pin: "0042")
        #expect(login.status == 0, "\(login.err)")
        #expect(page.userId == "jo@example.com")
        let (wrong, _) = try await home.login(on: server, pin: "0043")
        #expect(wrong.status == 1)
        #expect(wrong.err.contains("2 attempts left"), "\(wrong.err)")
    }

    @Test func threeWrongPINsBlockAndOnlyAnUnblockBringsTheIdentityBack() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("bob@example.com", on: server)

        for left in ["2 attempts left", "1 attempt left"] {
            let (wrong, _) = try await home.login(on: server, pin: "9999")
            #expect(wrong.status == 1)
            #expect(wrong.err.contains("Wrong PIN: \(left)"), "\(wrong.err)")
        }
        let (blocked, _) = try await home.login(on: server, pin: "9999")
        #expect(blocked.status == 1)
        #expect(blocked.err.contains("is blocked"), "\(blocked.err)")
        #expect(blocked.err.contains("zkpin register bob@example.com"))
        #expect(blocked.err.contains("unblock"))
        let users = try await home.users()
        #expect(users.first?["state"] as? String == "BLOCKED")
        #expect(users.first?["hasToken"] as? Bool == true)

        // Even the right PIN cannot sign in now: the server still says blocked, before any PIN.
        let (after, _) = try await home.login(on: server, pin: "1234")
        #expect(after.status == 1)
        #expect(after.err.contains("bob@example.com is still blocked"), "\(after.err)")

        // The operator unblocks it: the next login finds out before the PIN prompt, and the
        // same PIN signs in with the token the device kept.
        let unblock = try ChildProcess(Binaries.server, ["admin", "unblock", "bob@example.com", "--data", server.data])
        unblock.closeInput()
        #expect(await unblock.waitForExit() == 0, "\(unblock.standardError)")
        let (again, page) = try await home.login(on: server, pin: "1234")
        #expect(again.status == 0, "\(again.err)")
        #expect(page.status == "authenticate" && page.userId == "bob@example.com")
        #expect(try await home.users().first?["state"] as? String == "REGISTERED")
    }

    @Test func aWrongPINIsAskedAgainAndTheSameCodeSignsIn() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("rita@example.com", on: server)

        let (login, page) = try await home.login(on: server, pin: "9999\n1234")
        #expect(login.status == 0, "\(login.err)")
        #expect(login.err.contains("Wrong PIN: 2 attempts left before the identity is blocked; the same code still works."), "\(login.err)")
        #expect(login.out.contains("Signed in to"))
        #expect(page.status == "authenticate" && page.userId == "rita@example.com")
    }

    /// `zkpin login --json` after a wrong PIN says how many attempts are left as a field, not
    /// only in the message (issue 28, finding 6).
    @Test func aWrongPINUnderJSONCarriesAttemptsLeft() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("una@example.com", on: server)

        let (login, _) = try await home.login(on: server, pin: "9999", extra: ["--json"])
        #expect(login.status == 1, "\(login.err)")
        let document = try JSONSerialization.jsonObject(with: Data(login.out.utf8)) as? [String: Any]
        #expect(document?["status"] as? String == "INCORRECT_PIN", "\(login.out)")
        #expect(document?["attemptsLeft"] as? Int == 2, "\(login.out)")
    }

    @Test func threeWrongPINsInOneRunBlockAndTheNextLoginAsksNoPIN() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("sam@example.com", on: server)

        let (blocked, _) = try await home.login(on: server, pin: "9999\n9998\n9997", extra: ["--json"])
        #expect(blocked.status == 1)
        #expect(blocked.err.contains("Wrong PIN: 2 attempts left"), "\(blocked.err)")
        #expect(blocked.err.contains("Wrong PIN: 1 attempt left"), "\(blocked.err)")
        let document = try JSONSerialization.jsonObject(with: Data(blocked.out.utf8)) as? [String: Any]
        #expect(document?["status"] as? String == "BLOCKED", "\(blocked.out)")
        let users = try await home.users()
        #expect(users.first?["state"] as? String == "BLOCKED")
        #expect(users.first?["hasToken"] as? Bool == true)

        let next = try await server.accessNumber()
        let after = try await home.run(["login", next.qrUrl, "--pin-stdin"])
        #expect(after.status == 1, "\(after.err)")
        #expect(after.err.contains("sam@example.com is still blocked"), "\(after.err)")
        #expect(after.err.contains("no PIN was asked"))
    }

    @Test func changePINProvesTheOldPINAndThenOnlyTheNewOneSignsIn() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("tom@example.com", on: server, pin: "2468")

        // A wrong current PIN changes nothing (and counts as a wrong PIN). It is checked before
        // the new PIN is asked for: one line on standard input is enough to be told, in
        // change-pin's words, not the login's "the same code" (issue 28, finding 3).
        let wrongOld = try await home.run(["change-pin", "--pin-stdin", "--json"], input: "1357\n")
        #expect(wrongOld.status == 1, "\(wrongOld.err)")
        #expect(wrongOld.err.contains("Wrong current PIN: 2 attempts left"), "\(wrongOld.err)")
        #expect(wrongOld.err.contains("the PIN was not changed"), "\(wrongOld.err)")
        #expect(!wrongOld.err.contains("same code"), "\(wrongOld.err)")
        let wrongOldJSON = try JSONSerialization.jsonObject(with: Data(wrongOld.out.utf8)) as? [String: Any]
        #expect(wrongOldJSON?["status"] as? String == "INCORRECT_PIN", "\(wrongOld.out)")
        #expect(wrongOldJSON?["attemptsLeft"] as? Int == 2, "\(wrongOld.out)")
        // A trivial new PIN from standard input is refused before anything is stored.
        let trivial = try await home.run(["change-pin", "--user", "tom@example.com", "--pin-stdin", "--json"], input: "2468\n1234\n")
        #expect(trivial.status == 2, "\(trivial.err)")
        let refusal = try JSONSerialization.jsonObject(with: Data(trivial.out.utf8)) as? [String: Any]
        #expect(refusal?["status"] as? String == "BAD_INPUT")
        #expect(trivial.err.contains("easy to guess"))

        let changed = try await home.run(["change-pin", "--user", "tom@example.com", "--pin-stdin"], input: "2468\n8642\n")
        #expect(changed.status == 0, "\(changed.err)")
        #expect(changed.out.contains("Changed the PIN of tom@example.com"))

        let (withNew, page) = try await home.login(on: server, pin: "8642")
        #expect(withNew.status == 0, "\(withNew.err)")
        #expect(page.userId == "tom@example.com")
        let (withOld, _) = try await home.login(on: server, pin: "2468")
        #expect(withOld.status == 1)
        #expect(withOld.err.contains("Wrong PIN: 2 attempts left"), "\(withOld.err)")

        // --allow-trivial-pin keeps a trivial PIN on purpose.
        let allowed = try await home.run(["change-pin", "--pin-stdin", "--allow-trivial-pin"], input: "8642\n1111\n")
        #expect(allowed.status == 0, "\(allowed.err)")
        #expect(try await home.login(on: server, pin: "1111").0.status == 0)
    }

    @Test func eachBadInputAndEachFailureHasItsExitCode() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }

        // 2: bad input, refused before any network call (the port below is closed).
        for (payload, words) in [
            ("http://127.0.0.1:9/login", "has no access code"),
            ("http://127.0.0.1:9#1234561", "check digit"),
            ("http://127.0.0.1:9#12345", "7 digits"),
            ("ftp://127.0.0.1:9#1234560", "not a usable server URL")
        ] {
            let result = try await home.run(["login", payload, "--pin-stdin"], input: "1234\n")
            #expect(result.status == 2, "\(payload): \(result.err)")
            #expect(result.err.contains(words), "\(payload): \(result.err)")
        }
        let asJSON = try await home.run(["scan", "http://127.0.0.1:9#1234561", "--json"])
        #expect(asJSON.status == 2)
        let object = try JSONSerialization.jsonObject(with: Data(asJSON.out.utf8)) as? [String: Any]
        #expect(object?["status"] as? String == "INVALID_ACCESS_CODE")
        #expect(object?["exitCode"] as? Int == 2)
        let noImage = try await home.run(["login", "--image", home.path + "/none.png", "--pin-stdin"], input: "1234\n")
        #expect(noImage.status == 2)
        #expect(noImage.err.contains("Could not read a QR code"))

        // 2: no identity for this server yet.
        let access = try await server.accessNumber()
        let unknown = try await home.run(["login", access.qrUrl, "--pin-stdin"], input: "1234\n")
        #expect(unknown.status == 2, "\(unknown.err)")
        #expect(unknown.err.contains("There is no stored identity"))

        try await home.register("carol@example.com", on: server)
        // 2: a PIN that is not 4 digits.
        let shortPIN = try await home.run(["login", access.qrUrl, "--pin-stdin"], input: "12345\n")
        #expect(shortPIN.status == 2)
        #expect(shortPIN.err.contains("A PIN is exactly 4 digits"))
        // 2: an unknown --user.
        let otherUser = try await home.run(["login", access.qrUrl, "--user", "dave@example.com", "--pin-stdin"], input: "1234\n")
        #expect(otherUser.status == 2)

        // 3: unreachable, and not an M-Pin server.
        let closed = try await home.run(["scan", "http://127.0.0.1:9#1234560"])
        #expect(closed.status == 3)
        #expect(closed.err.contains("Could not reach"))
        let notMPin = try await home.run(["scan", server.base + "/account#1234560"])
        #expect(notMPin.status == 3, "\(notMPin.err)")
        #expect(notMPin.err.contains("does not answer like an M-Pin server"))

        // 0 once (payload and PIN both on standard input), then 1: the same code is used.
        let page = Task { try await server.pollAccess(webOTT: access.webOTT, seconds: 40) }
        let first = try await home.run(["login", "-", "--pin-stdin"], input: access.qrUrl + "\n1234\n")
        #expect(first.status == 0, "\(first.err)")
        #expect(try await page.value.status == .authenticate)
        let reused = try await home.run(["login", access.qrUrl, "--pin-stdin"], input: "1234\n")
        #expect(reused.status == 1, "\(reused.err)")
        #expect(reused.err.contains("expired or was already used"))

        // 1: revoked on the server.
        let admin = try ChildProcess(Binaries.server, ["admin", "revoke", "carol@example.com", "--data", server.data])
        #expect(await admin.waitForExit() == 0, "\(admin.standardError)")
        let (revoked, _) = try await home.login(on: server, pin: "1234")
        #expect(revoked.status == 1)
        #expect(revoked.err.contains("does not accept the identity carol@example.com"), "\(revoked.err)")
        // A refusal like this keeps the stored token, and marks the identity REVOKED.
        let users = try await home.users()
        #expect(users.first?["hasToken"] as? Bool == true)
        #expect(users.first?["state"] as? String == "REVOKED")
        let listed = try await home.run(["users"])
        #expect(listed.out.contains("REVOKED"), "\(listed.out)")
        // The next login says so at once: no PIN is read (none is given), no code is presented.
        let next = try await server.accessNumber()
        let again = try await home.run(["login", next.qrUrl, "--pin-stdin"])
        #expect(again.status == 1, "\(again.err)")
        #expect(again.err.contains("carol@example.com is revoked"), "\(again.err)")
        #expect(!again.err.contains("Signing in to"))
    }

    @Test func signsInFromAPictureOfTheQRCode() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("erin@example.com", on: server)

        let access = try await server.accessNumber()
        let png = home.path + "/code.png"
        try QRCodePNG.write(access.qrUrl, to: png)
        let scan = try await home.run(["scan", "--image", png, "--json"])
        #expect(scan.status == 0, "\(scan.err)")
        let scanned = try JSONSerialization.jsonObject(with: Data(scan.out.utf8)) as? [String: Any]
        #expect(scanned?["accessCode"] as? String == access.accessNumber)
        #expect(scanned?["curve"] as? String == "bls12-381")

        let page = Task { try await server.pollAccess(webOTT: access.webOTT, seconds: 40) }
        let login = try await home.run(["login", "--image", png, "--pin-stdin"], input: "1234\n")
        #expect(login.status == 0, "\(login.err)")
        let final = try await page.value
        #expect(final.status == .authenticate)
        #expect(final.userId == "erin@example.com")
    }

    @Test func warnsWhenThePayloadHostDiffersFromTheService() async throws {
        // The server calls itself localhost; the payload says 127.0.0.1.
        let server = try await TestServer(extraArguments: ["--public-url", "http://localhost:1"])
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("frank@example.com", on: server)

        let refused = try await home.login(on: server, pin: "1234") { server.base + "#" + $0 }
        #expect(refused.0.status == 2)
        #expect(refused.0.err.contains("Warning: this payload points at 127.0.0.1"), "\(refused.0.err)")
        #expect(refused.0.err.contains("--accept-host"))
        #expect(!refused.0.err.contains("Signing in to"))

        let (accepted, page) = try await home.login(on: server, pin: "1234", extra: ["--accept-host"]) { server.base + "#" + $0 }
        #expect(accepted.status == 0, "\(accepted.err)")
        #expect(accepted.err.contains("Warning:"))
        #expect(page.status == "authenticate")
    }

    @Test func keepsIdentitiesOfTwoServersInOneStore() async throws {
        let first = try await TestServer()
        defer { first.stop() }
        let second = try await TestServer(extraArguments: ["--permits", "on"])
        defer { second.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("gina@example.com", on: first, pin: "1111")
        try await home.register("gina@example.com", on: second, pin: "2222")
        try await home.register("hal@example.com", on: second, pin: "3333")

        let users = try await home.users()
        #expect(users.count == 3)
        #expect(Set(users.compactMap { $0["server"] as? String }) == [first.base, second.base])

        let (onFirst, _) = try await home.login(on: first, pin: "1111")
        #expect(onFirst.status == 0, "\(onFirst.err)")
        let (ambiguous, _) = try await home.login(on: second, pin: "2222")
        #expect(ambiguous.status == 2)
        #expect(ambiguous.err.contains("Choose one with --user"))
        let (chosen, page) = try await home.login(on: second, pin: "3333", extra: ["--user", "hal@example.com"])
        #expect(chosen.status == 0, "\(chosen.err)")
        #expect(page.userId == "hal@example.com")

        let unsure = try await home.run(["delete", "gina@example.com"])
        #expect(unsure.status == 2)
        // Without a terminal to ask on, delete needs --yes and deletes nothing without it
        // (issue 28, finding 10).
        let unasked = try await home.run(["delete", "gina@example.com", "--server", first.base])
        #expect(unasked.status == 2, "\(unasked.err)")
        #expect(unasked.err.contains("Nothing was deleted") && unasked.err.contains("--yes"), "\(unasked.err)")
        #expect(try await home.users().count == 3)
        let deleted = try await home.run(["delete", "gina@example.com", "--server", first.base, "--yes"])
        #expect(deleted.status == 0, "\(deleted.err)")
        #expect(try await home.users().count == 2)
        // gina on the second server is untouched by the delete.
        let (gina, _) = try await home.login(on: second, pin: "2222", extra: ["--user", "gina@example.com"])
        #expect(gina.status == 0, "\(gina.err)")
    }
}
