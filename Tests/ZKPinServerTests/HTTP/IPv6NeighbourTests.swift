import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Per-address counts take an IPv6 client's /64 (one subscriber's prefix), and an IPv4-mapped
/// address is its IPv4 address, for the trusted proxy too.
@Suite struct IPv6NeighbourTests {
    @Test func addressesAreCountedByTheirSlash64() {
        #expect(ClientAddress.counted("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64")
        #expect(ClientAddress.counted("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.counted("[2001:db8:1:2::7]") == "2001:db8:1:2::/64")
        #expect(ClientAddress.counted("fe80::1%eth0") == "fe80:0:0:0::/64")
        #expect(ClientAddress.counted("2001:db8:1:3::1") != ClientAddress.counted("2001:db8:1:2::1"))
        #expect(ClientAddress.counted("::ffff:127.0.0.1") == "127.0.0.1")
        #expect(ClientAddress.counted("::ffff:203.0.113.9") == "203.0.113.9")
        #expect(ClientAddress.counted("203.0.113.9") == "203.0.113.9")
        #expect(ClientAddress.counted("unknown") == "unknown")
        #expect(ClientAddress(trustedProxy: "::ffff:127.0.0.1").trustedProxy == "127.0.0.1")
    }

    /// 15 addresses of one /64, each with a single pass 1 for the same mpinId: one count, so
    /// past the per-address limit they are refused; a neighbour /64 keeps its own count.
    @Test func fifteenAddressesOfOnePrefixShareOneCount() async throws {
        let live = try await LiveServer.start { o in
            o.trustedProxy = "127.0.0.1"
            o.pass1PerAddress = 10
        }
        defer { live.stop() }
        let owner = FromAddress(inner: live.transport, address: "198.51.100.7")
        let user = try await TestUser.register(owner, email: "v6@example.com", pin: 2580, outbox: live.harness.outbox)
        var statuses: [Int] = []
        for n in 1...15 {
            let neighbour = FromAddress(inner: live.transport, address: "2001:db8:1:2::\(String(n, radix: 16))")
            statuses.append(try await user.strangerPass1(neighbour).status)
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(statuses.suffix(5).allSatisfy { $0 == 429 }, "\(statuses)")
        let otherPrefix = FromAddress(inner: live.transport, address: "2001:db8:1:3::1")
        #expect(try await user.strangerPass1(otherPrefix).status == 200)
        #expect(try await user.login(owner).status == 200)
    }
}
