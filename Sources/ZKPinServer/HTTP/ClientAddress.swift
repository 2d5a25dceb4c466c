import Foundation
import Hummingbird

/// The client's address for rate limits and audit: the peer, or the last X-Forwarded-For hop
/// when the peer is the trusted proxy. An IPv6 client is named by its /64 prefix (one
/// subscriber commonly holds a whole /64, so counting single IPv6 addresses would give one
/// host 2^64 counts), and an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, what a server
/// listening on `::` sees of an IPv4 peer) by its IPv4 address, for the trusted proxy too.
struct ClientAddress: Sendable {
    let trustedProxy: String?

    init(trustedProxy: String?) {
        self.trustedProxy = trustedProxy.map(Self.counted)
    }

    func of(_ request: Request, _ context: AppContext) -> String {
        let peer = Self.counted(context.remoteAddress?.ipAddress ?? "unknown")
        if let trustedProxy, peer == trustedProxy, let forwarded = request.headers[.xForwardedFor] {
            // The last hop the proxy added is the one it saw.
            if let last = forwarded.split(separator: ",").last { return Self.counted(last.trimmingCharacters(in: .whitespaces)) }
        }
        return peer
    }

    /// The name an address is counted under: IPv4 as it is, an IPv4-mapped IPv6 address as its
    /// IPv4 address, any other IPv6 address as its /64 prefix (`2001:db8:1:2::/64`); text that
    /// is no address (a proxy's odd header) as it is.
    static func counted(_ text: String) -> String {
        var v6 = in6_addr()
        let unbracketed = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        // A zone (`fe80::1%eth0`) names an interface, not an address.
        let plain = unbracketed.split(separator: "%", maxSplits: 1).first.map(String.init) ?? unbracketed
        guard plain.contains(":"), inet_pton(AF_INET6, plain, &v6) == 1 else { return text }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return bytes[12..<16].map { String($0) }.joined(separator: ".")
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }
}
