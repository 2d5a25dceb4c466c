import ZKPinClientCore

/// Why a ZKPinKit call failed, in the cases a sign-in screen tells apart. `description` is a
/// sentence a person can read in an app (it names no command or option).
public enum ZKPinKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The PIN was wrong; `attemptsLeft` before the server blocks the identity (nil: unknown).
    case wrongPIN(attemptsLeft: Int?, message: String)
    /// Too many wrong PINs: the server blocked the identity until an operator unblocks it.
    case blocked(message: String)
    /// The server no longer accepts the identity (revoked, or unknown to it): register again.
    case revoked(message: String)
    /// The page's access code expired or was already used: reload the page for a new one.
    case expiredCode(message: String)
    /// The registration expired before it was confirmed, or was refused: register again.
    case registrationExpired(message: String)
    /// The person did not confirm the registration in the time given: confirm, then wait again.
    case notActivated(message: String)
    /// No identity that can sign in there (none stored, or its registration is unfinished).
    case notRegistered(message: String)
    /// Input refused before any network call: a payload, PIN, e-mail address or URL.
    case invalidInput(message: String)
    /// The server could not be reached, or did not answer in time.
    case network(message: String)
    /// The server answered something unexpected (not an M-Pin server, a rate limit, an error).
    case server(message: String)
    /// The identity store could not be read or written.
    case storage(message: String)
    /// Stopped: the request is gone, or a newer registration replaced this one.
    case cancelled(message: String)

    public var description: String {
        switch self {
        case .wrongPIN(_, let m), .blocked(let m), .revoked(let m), .expiredCode(let m), .registrationExpired(let m),
            .notActivated(let m), .notRegistered(let m), .invalidInput(let m), .network(let m), .server(let m),
            .storage(let m), .cancelled(let m):
            return m
        }
    }

    /// The flows' error, sorted into the cases above.
    init(_ error: ClientError) {
        let message = Self.message(for: error)
        switch error {
        case .wrongPIN(let left), .wrongCurrentPIN(let left): self = .wrongPIN(attemptsLeft: left, message: message)
        case .blocked, .notRegistered(_, .blocked, _): self = .blocked(message: message)
        case .identityNotAuthorized, .refused, .notRegistered(_, .revoked, _): self = .revoked(message: message)
        case .accessCodeExpired, .authenticationTimeout: self = .expiredCode(message: message)
        case .registrationExpired: self = .registrationExpired(message: message)
        case .notActivated: self = .notActivated(message: message)
        case .notRegistered, .unknownIdentity, .ambiguousIdentity: self = .notRegistered(message: message)
        case .missingAccessCode, .invalidAccessCode, .malformedURL, .invalidPIN, .pinMismatch, .trivialPIN, .invalidEmail,
            .badInput, .hostMismatch, .unreadableImage, .noHolderProof:
            self = .invalidInput(message: message)
        case .networkError, .timeout: self = .network(message: message)
        case .notMPinServer, .unexpectedResponse, .rateLimited, .invalidToken: self = .server(message: message)
        case .storeUnavailable: self = .storage(message: message)
        case .cancelled: self = .cancelled(message: message)
        }
    }
}
