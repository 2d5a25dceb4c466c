import Foundation

/// The bounds on the connections of one server process (docs/limits.md): how many it serves
/// at once, and how long a connection may wait without a complete request part (which is also
/// the header timeout). The body timeout belongs to the router (`BodyLimitMiddleware`).
public struct ServerLimits: Sendable {
    public var maxConnections: Int
    public var idleTimeout: Int
    /// Connections one client address may hold at once; 0: a tenth of the cap, at least 16.
    public var maxConnectionsPerAddress: Int
    /// The trusted proxy: its connections count only towards the total.
    public var trustedProxy: String?

    public init(maxConnections: Int = 10_000, idleTimeout: Int = 30, maxConnectionsPerAddress: Int = 0, trustedProxy: String? = nil) {
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.trustedProxy = trustedProxy
    }

    public init(_ options: ServeOptions) {
        self.init(
            maxConnections: options.maxConnections, idleTimeout: options.idleTimeout,
            maxConnectionsPerAddress: options.maxConnectionsPerAddress, trustedProxy: options.trustedProxy)
    }

    /// The share of `cap` one address may hold.
    func perAddress(cap: Int) -> Int {
        maxConnectionsPerAddress > 0 ? min(maxConnectionsPerAddress, cap) : min(cap, max(16, cap / 10))
    }

    /// File descriptors kept back from the connection cap: the database, logs, key files, the
    /// listening socket and the over-cap connections that are being told 503.
    static let reservedDescriptors = 256

    /// The cap that fits under the process's file-descriptor limit.
    func effectiveMaxConnections(descriptorLimit: Int) -> Int {
        max(1, min(maxConnections, descriptorLimit - Self.reservedDescriptors))
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
