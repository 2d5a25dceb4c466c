import Foundation
import Testing

@testable import ZKPinServer

/// `zkpin-server admin clients add|list|remove`, run as the real executable.
@Suite struct AdminClientsCommandTests {
    @Test func addListRemove() async throws {
        let h = try await Harness.make()
        let add = try await AdminCommandTests.admin([
            "clients", "add", "Wiki", "--data", h.dir, "--redirect-uri", "https://wiki.example/cb",
            "https://wiki.example/cb2", "--post-logout-uri", "https://wiki.example/"
        ])
        #expect(add.status == 0, "\(add.err)")
        let id = try #require(OIDCFlow.capture(#"client_id: (zk-[0-9a-f]+)"#, in: add.out))
        let secret = try #require(OIDCFlow.capture(#"client_secret: ([0-9a-f]{64})"#, in: add.out))
        let stored = try #require(try await h.rp.store.oidcClient(id: id))
        #expect(stored.name == "Wiki" && stored.redirectURIs == ["https://wiki.example/cb", "https://wiki.example/cb2"])
        #expect(stored.postLogoutURIs == ["https://wiki.example/"])
        // Only the hash is kept.
        #expect(stored.secretHash == Tokens.hash(secret) && stored.secretHash != secret)

        let pub = try await AdminCommandTests.admin(["clients", "add", "App", "--public", "--data", h.dir, "--redirect-uri", "http://127.0.0.1:9/cb"])
        #expect(pub.status == 0 && pub.out.contains("public client") && !pub.out.contains("client_secret"))
        #expect(pub.out.contains("PKCE (S256) required"))
        // A device (RFC 8628) has no authorization code: nothing is said about PKCE.
        let tv = try await AdminCommandTests.admin(["clients", "add", "TV", "--device", "--public", "--data", h.dir])
        #expect(tv.status == 0 && tv.out.contains("public client: no secret") && !tv.out.contains("PKCE"), "\(tv)")

        let list = try await AdminCommandTests.admin(["clients", "list", "--data", h.dir])
        #expect(list.out.contains("\(id)\tWiki\tconfidential") && list.out.contains("App\tpublic"))
        #expect(!list.out.contains(secret))

        // Bad input: no redirect URI, a relative one, one with a fragment.
        for args in [
            ["clients", "add", "X", "--data", h.dir], ["clients", "add", "X", "--data", h.dir, "--redirect-uri", "/cb"],
            ["clients", "add", "X", "--data", h.dir, "--redirect-uri", "https://x.example/cb#f"]
        ] {
            let run = try await AdminCommandTests.admin(args)
            #expect(run.status != 0, "\(args)")
        }

        #expect(try await AdminCommandTests.admin(["clients", "remove", id, "--data", h.dir]).status == 0)
        #expect(try await h.rp.store.oidcClient(id: id) == nil)
        #expect(try await AdminCommandTests.admin(["clients", "remove", id, "--data", h.dir]).status == 1)
    }

    /// `--otp`: a one-time code service needs no redirect URI, always has a secret, and the list says so.
    @Test func addsAOneTimeCodeService() async throws {
        let h = try await Harness.make()
        let add = try await AdminCommandTests.admin(["clients", "add", "VPN", "--otp", "--data", h.dir])
        #expect(add.status == 0, "\(add.err)")
        let id = try #require(OIDCFlow.capture(#"client_id: (zk-[0-9a-f]+)"#, in: add.out))
        #expect(OIDCFlow.capture(#"client_secret: ([0-9a-f]{64})"#, in: add.out) != nil)
        #expect(try await h.rp.store.oidcClient(id: id)?.otp == true)
        #expect(try await h.rp.store.otpServices().map(\.id) == [id])
        let list = try await AdminCommandTests.admin(["clients", "list", "--data", h.dir])
        #expect(list.out.contains("\(id)\tVPN\tconfidential\tES256\totp"), "\(list.out)")
        let open = try await AdminCommandTests.admin(["clients", "add", "Open", "--otp", "--public", "--data", h.dir])
        #expect(open.status != 0 && open.err.contains("needs a secret"), "\(open.err)")
    }
}
