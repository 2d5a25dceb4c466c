import Hummingbird

/// The client's address for rate limits and audit: the peer, or the last X-Forwarded-For hop
/// when the peer is the trusted proxy.
struct ClientAddress: Sendable {
    let trustedProxy: String?

    func of(_ request: Request, _ context: AppContext) -> String {
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        if let trustedProxy, peer == trustedProxy, let forwarded = request.headers[.xForwardedFor] {
            // The last hop the proxy added is the one it saw.
            if let last = forwarded.split(separator: ",").last { return last.trimmingCharacters(in: .whitespaces) }
        }
        return peer
    }
}
