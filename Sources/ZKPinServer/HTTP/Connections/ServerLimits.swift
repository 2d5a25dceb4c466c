import Foundation

/// The bounds on the connections of one server process (docs/limits.md): how many it serves
/// at once, how many of them one address may hold, and how long a connection may wait without
/// a complete request part (which is also the header timeout) or with an answer its peer does
/// not read. The body timeout belongs to the router (`BodyLimitMiddleware`).
public struct ServerLimits: Sendable {
    public var maxConnections: Int
    /// Connections one address (an IPv6 /64) may hold; 0: an eighth of the effective cap.
    public var maxConnectionsPerAddress: Int
    public var idleTimeout: Int
    /// The proxy whose connections carry everyone's: no share of its own, only the cap.
    public var trustedProxy: String?

    /// The values come from the serve settings (`ServerLimits(options)`, in App).
    public init(maxConnections: Int, maxConnectionsPerAddress: Int, idleTimeout: Int, trustedProxy: String?) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.idleTimeout = idleTimeout
        self.trustedProxy = trustedProxy
    }

    /// File descriptors kept back from the connection cap: the database, logs, key files, the
    /// listening socket and the over-cap connections that are being told 503.
    static let reservedDescriptors = 256

    /// The cap that fits under the process's file-descriptor limit.
    func effectiveMaxConnections(descriptorLimit: Int) -> Int {
        max(1, min(maxConnections, descriptorLimit - Self.reservedDescriptors))
    }

    /// One address's share of `cap`: the configured number, or an eighth of the cap (at least
    /// 16: a household behind one address opens a few browsers' worth of connections).
    func perAddressConnections(cap: Int) -> Int {
        maxConnectionsPerAddress > 0 ? min(maxConnectionsPerAddress, cap) : min(cap, max(16, cap / 8))
    }
}

/// The process's open-file limit (RLIMIT_NOFILE).
public enum FileDescriptorLimit {
    /// Raises the soft limit to the hard limit (the default soft limit, often 1,024, is what
    /// let 1,100 idle sockets make a server unreachable) and answers the soft limit now.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            // An unlimited hard limit is not a valid soft limit for open files on Linux.
            raised.rlim_cur = limits.rlim_max == rlim_t.max ? 1 << 20 : limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur == rlim_t.max ? Int.max : Int(limits.rlim_cur)
    }
}
