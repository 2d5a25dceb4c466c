// Discovery: `GET /service` and `GET /rps/clientSettings` (the HTTP API, "Discovery": openapi.yaml and docs/api.md).

/// `GET /service`: what a client reads after scanning a QR payload `<url>#<access-code>`.
public struct ServiceInfo: Codable, Sendable, Equatable {
    public var name: String
    /// The service's public URL; a client warns when the payload's host differs from it.
    public var url: String
    /// Always "rps".
    public var rpsPrefix: String
    public var logoURL: String
    /// Always "online".
    public var type: String

    public init(name: String, url: String, rpsPrefix: String = "rps", logoURL: String, type: String = "online") {
        self.name = name; self.url = url; self.rpsPrefix = rpsPrefix; self.logoURL = logoURL; self.type = type
    }

    enum CodingKeys: String, CodingKey {
        case name, url, type
        case rpsPrefix = "rps_prefix"
        case logoURL = "logo_url"
    }
}

/// `GET /rps/clientSettings`.
public struct ClientSettings: Codable, Sendable, Equatable {
    public var signatureURL: String
    public var registerURL: String
    public var timePermitsURL: String
    public var mpinAuthServerURL: String
    public var mobileAuthenticateURL: String
    /// 7: six random digits and one check digit.
    public var accessNumberDigits: Int
    public var accessNumberUseCheckSum: Bool
    public var cSum: Int
    /// A canonical curve name, see `CurveName`.
    public var curve: String
    public var usePermits: Bool
    public var maxInvalidLoginAttempts: Int
    /// Where D-TA 2 answers; absolute or relative to the service URL (`ClientSettings.resolve`).
    public var dta2URL: String

    public init(
        signatureURL: String, registerURL: String, timePermitsURL: String,
        mpinAuthServerURL: String, mobileAuthenticateURL: String,
        accessNumberDigits: Int = AccessCode.length, accessNumberUseCheckSum: Bool = true,
        cSum: Int = 1, curve: String, usePermits: Bool, maxInvalidLoginAttempts: Int,
        dta2URL: String
    ) {
        self.signatureURL = signatureURL; self.registerURL = registerURL
        self.timePermitsURL = timePermitsURL; self.mpinAuthServerURL = mpinAuthServerURL
        self.mobileAuthenticateURL = mobileAuthenticateURL
        self.accessNumberDigits = accessNumberDigits; self.accessNumberUseCheckSum = accessNumberUseCheckSum
        self.cSum = cSum; self.curve = curve; self.usePermits = usePermits
        self.maxInvalidLoginAttempts = maxInvalidLoginAttempts; self.dta2URL = dta2URL
    }

    /// Resolves a URL of the settings (absolute, or a path relative to the service URL).
    public static func resolve(_ url: String, against serviceURL: String) -> String {
        if url.hasPrefix("http://") || url.hasPrefix("https://") { return url }
        var base = serviceURL
        while base.hasSuffix("/") { base.removeLast() }
        return url.hasPrefix("/") ? base + url : base + "/" + url
    }
}
