import Foundation
import Testing
import ZKPinClient

/// `zkpin push` against a real `zkpin-server` whose `--push-services` allows a test push
/// service (tools/lib/push_service.py) on loopback: subscribe, list and unsubscribe, a site's
/// request delivered to the subscription and decrypted there, and each refusal told clearly.
@Suite(
    .serialized,
    .enabled(
        if: Binaries.serverAvailable,
        "zkpin-server is not built beside the tests; run `swift build --product zkpin-server` (same --scratch-path) to run the end-to-end tests"))
struct PushCommandTests {
    static func document(_ run: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(run.out)\(run.err)")
    }

    @Test(.enabled(if: PushServiceProcess.available, "pip's cryptography and PyJWT are needed by tools/lib/push_service.py"))
    func subscribesListsAndUnsubscribesAndTheRequestArrives() async throws {
        let push = try await PushServiceProcess()
        defer { push.stop() }
        let server = try await TestServer(extraArguments: ["--push-services", push.origin])
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("pat@example.com", on: server)

        let settings = try Self.document(try await home.run(["push", "settings", "--json"]))
        let vapid = try #require(settings["vapidPublicKey"] as? String)
        #expect(vapid.count == 87, "a P-256 public key in base64url: \(vapid)")
        #expect(settings["services"] as? [String] == [push.origin])
        let human = try await home.run(["push", "settings", "--server", server.base])
        #expect(human.status == 0 && human.out.contains("VAPID public key: \(vapid)") && human.out.contains(push.origin), "\(human.out)\(human.err)")

        let device = try await push.subscribe(applicationServerKey: vapid)
        let subscribed = try await home.run(["push", "subscribe", device.endpoint, "--p256dh", device.p256dh, "--auth", device.auth, "--json"])
        #expect(subscribed.status == 0, "\(subscribed.err)")
        let stored = try Self.document(subscribed)
        let id = try #require(stored["id"] as? String)
        #expect(stored["endpoint"] as? String == device.endpoint && stored["userId"] as? String == "pat@example.com")

        let listed = try Self.document(try await home.run(["push", "list", "--json"]))
        let rows = try #require(listed["subscriptions"] as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == [id])
        let table = try await home.run(["push", "list"])
        #expect(table.status == 0 && table.out.contains(id) && table.out.contains(device.endpoint), "\(table.out)\(table.err)")

        // A site's request reaches the subscription, encrypted for it and VAPID-signed (the
        // service refuses anything else), and it decrypts to the request's site and message.
        let bank = try await CIBASite.add("Bank", on: server)
        let asked = try await bank.ask("Pay 5 EUR to Bob", hint: "pat@example.com")
        var payloads: [String] = []
        for _ in 0..<300 where payloads.isEmpty {
            payloads = try await push.messages(device)
            if payloads.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
        }
        let payload = try #require(payloads.first.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(payload["kind"] as? String == "approval" && payload["id"] as? String == asked, "\(payload)")
        #expect(payload["site"] as? String == "Bank" && payload["message"] as? String == "Pay 5 EUR to Bob", "\(payload)")

        // The same endpoint again replaces it; then it goes by its endpoint, and a second time
        // there is nothing to remove.
        #expect(try await home.run(["push", "subscribe", device.endpoint, "--p256dh", device.p256dh, "--auth", device.auth]).status == 0)
        #expect((try Self.document(try await home.run(["push", "list", "--json"]))["subscriptions"] as? [Any])?.count == 1)
        let removed = try await home.run(["push", "unsubscribe", device.endpoint])
        #expect(removed.status == 0 && removed.out.contains("0 subscriptions are left for pat@example.com"), "\(removed.out)\(removed.err)")
        let again = try await home.run(["push", "unsubscribe", id, "--json"])
        #expect(again.status == 2 && again.err.contains("has no push subscription"), "\(again.err)")
        #expect(try Self.document(again)["status"] as? String == "BAD_INPUT")
        let empty = try await home.run(["push", "list"])
        #expect(empty.status == 0 && empty.out.isEmpty && empty.err.contains("no push subscriptions"), "\(empty.out)\(empty.err)")

        // An endpoint outside --push-services is refused, and the server's reason names the
        // services it sends to.
        let elsewhere = try await home.run(["push", "subscribe", "https://push.example.net/x", "--p256dh", device.p256dh, "--auth", device.auth])
        #expect(elsewhere.status == 2 && elsewhere.err.contains(push.origin), "\(elsewhere.err)")
        let notAURL = try await home.run(["push", "subscribe", "push.example.net", "--p256dh", device.p256dh, "--auth", device.auth])
        #expect(notAURL.status == 2 && notAURL.err.contains("ENDPOINT must be the push service's URL"), "\(notAURL.err)")
    }

    @Test func aMissingOrRefusedHolderProofIsToldAndWrongProofsAreLimited() async throws {
        let server = try await TestServer()
        defer { server.stop() }
        let home = ClientHome()
        defer { home.folder.remove() }
        try await home.register("quinn@example.com", on: server)
        let store = try SQLiteIdentityStore(home: home.path)

        // An identity an older client registered, with no holder proof stored.
        let mpinId = String(repeating: "ab", count: 40)
        try store.beginRegistration(
            server: server.base, userId: "old@example.com", deviceName: nil, serviceName: nil, curve: "bls12-381", mpinId: mpinId,
            regOTT: "r", expires: "2099-01-01T00:00:00Z")
        try store.completeRegistration(
            server: server.base, userId: "old@example.com", mpinId: mpinId, token: String(repeating: "cd", count: 97), curve: "bls12-381")
        let old = try await home.run(["push", "list", "--user", "old@example.com", "--json"])
        #expect(old.status == 2 && old.err.contains("sign in once with `zkpin login`"), "\(old.err)")
        #expect(try Self.document(old)["status"] as? String == "BAD_INPUT")
        // Several identities: the push commands choose as `zkpin approve` does.
        let several = try await home.run(["push", "list"])
        #expect(several.status == 2 && several.err.contains("Choose one with --user EMAIL"), "\(several.err)")

        // A proof the server does not take: 403 with its reason, exit 1.
        try store.recordLogin(server: server.base, userId: "quinn@example.com", holder: String(repeating: "0", count: 64))
        let refused = try await home.run(["push", "list", "--user", "quinn@example.com", "--json"])
        #expect(refused.status == 1 && refused.err.contains("not this identity's holder proof"), "\(refused.err)")
        #expect(try Self.document(refused)["status"] as? String == "IDENTITY_NOT_AUTHORIZED")
        // Wrong proofs are limited per address (20 in 5 minutes): then 429, exit 3.
        var limited: CLIResult?
        for _ in 0..<25 {
            let run = try await home.run(["push", "list", "--user", "quinn@example.com"])
            if run.status != 1 {
                limited = run
                break
            }
        }
        let slowed = try #require(limited)
        #expect(
            slowed.status == 3 && slowed.err.contains("asked to slow down") && slowed.err.contains("too many wrong holder proofs"), "\(slowed.err)")
    }
}
