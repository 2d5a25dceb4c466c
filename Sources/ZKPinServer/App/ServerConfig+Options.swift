import ZKPinProtocol

extension ServerConfig {
    /// The relying party's configuration from the serve settings: where most settings are used.
    /// `publicURL` loses its trailing slashes.
    public init(_ o: ServeOptions, publicURL: String, curve: CurveID, webDirectory: String?) {
        var url = publicURL
        while url.hasSuffix("/") { url.removeLast() }
        self.publicURL = url
        self.curve = curve
        usePermits = o.permits
        maxAttempts = o.maxAttempts
        accessCodeTTL = o.accessCodeTTL
        serviceName = o.serviceName
        trustedProxy = o.trustedProxy
        limits = Limits(
            registrationsPerAddress: o.registrationsPerAddress, pass1PerAddress: o.pass1PerAddress,
            pass1PerIdentityAndAddress: o.pass1PerIdentity)
        maxVerificationBatch = o.verificationBatch
        verificationWaitMilliseconds = o.verificationWait
        identityCacheEntries = o.identityCache
        otp = OTPSettings(
            digits: o.otpDigits, ttl: o.otpTTL, wrongCodes: RateLimiter.Rule(limit: o.otpWrongCodes, window: o.otpWrongWindow))
        bodyTimeout = o.bodyTimeout
        mailFrom = o.mailFrom
        notifyOnBlock = o.notifyUser
        notMeBlocks = o.notMeBlocks
        cookieDomain = o.cookieDomain?.lowercased()
        returnHosts = Set((o.forwardAuth.flatMap { try? ForwardAuthRules(parsing: $0) }?.hosts.keys).map(Array.init) ?? [])
        // The admin page sends a visitor to sign in and back to where they were.
        returnPaths = o.admins == nil ? [] : [AdminPageAccess.path]
        limits.pendingRequestsPerPerson = o.pendingRequests
        dataDirectory = o.dataDirectory
        clientCommand = o.clientCommand
        self.webDirectory = webDirectory
    }
}
