extension ServerLimits {
    public init(_ options: ServeOptions) {
        self.init(
            maxConnections: options.maxConnections, maxConnectionsPerAddress: options.maxConnectionsPerAddress,
            idleTimeout: options.idleTimeout, trustedProxy: options.trustedProxy)
    }
}
