import ZKPinWire

/// Everything that can stop a client operation. Each case carries what the person needs to act
/// on it; `message` says what happened and what to do next, `exitCode` is the CLI's contract:
/// 1 authentication refused, 2 bad input, 3 network or server trouble.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    // 2: bad input, refused before (or without) any network call.
    case missingAccessCode(payload: String)
    case invalidAccessCode(code: String, reason: String)
    case malformedURL(String)
    case invalidPIN(reason: String)
    case pinMismatch
    case trivialPIN(reason: String)
    case invalidEmail(String)
    case unknownIdentity(userId: String?, server: String?)
    case ambiguousIdentity(server: String, userIds: [String])
    case unreadableImage(path: String, reason: String)
    case hostMismatch(payloadHost: String, serviceHost: String)
    case storeUnavailable(path: String, reason: String)
    case badInput(String)
    /// The identity has no holder proof (registered by an older client, never signed in since),
    /// which the push endpoints require.
    case noHolderProof(userId: String, server: String)

    // 1: authentication or registration refused.
    case wrongPIN(attemptsLeft: Int?)
    /// `zkpin change-pin`: the current PIN was wrong, so no new PIN was asked or stored.
    case wrongCurrentPIN(attemptsLeft: Int?)
    case invalidToken
    /// `server`: the URL the identity is stored for, so the message can name it.
    case blocked(userId: String, server: String? = nil)
    case accessCodeExpired
    case identityNotAuthorized(userId: String, server: String? = nil)
    case notActivated(userId: String, waitedSeconds: Int?)
    case registrationExpired(userId: String, server: String? = nil)
    case notRegistered(userId: String, state: UserState, server: String? = nil)
    case authenticationTimeout
    case cancelled(String)
    /// 403 with the server's reason (a holder proof it does not accept, an identity it no
    /// longer takes, a limit of what one device may hold).
    case refused(String)

    // 3: network or server trouble.
    case networkError(url: String, reason: String)
    case timeout(url: String, seconds: Int? = nil)
    case notMPinServer(url: String, reason: String)
    case unexpectedResponse(url: String, status: Int, detail: String)
    /// 429: the server's limit, with its message (which limit, and what to do) when it gave one.
    case rateLimited(url: String, detail: String? = nil)

    public var exitCode: Int32 {
        switch self {
        case .missingAccessCode, .invalidAccessCode, .malformedURL, .invalidPIN, .pinMismatch, .trivialPIN,
            .invalidEmail, .unknownIdentity, .ambiguousIdentity, .unreadableImage, .hostMismatch,
            .storeUnavailable, .badInput, .noHolderProof:
            return 2
        case .wrongPIN, .wrongCurrentPIN, .invalidToken, .blocked, .accessCodeExpired, .identityNotAuthorized,
            .notActivated, .registrationExpired, .notRegistered, .authenticationTimeout, .cancelled, .refused:
            return 1
        case .networkError, .timeout, .notMPinServer, .unexpectedResponse, .rateLimited:
            return 3
        }
    }

    public var status: ClientStatus {
        switch self {
        case .missingAccessCode, .invalidAccessCode: return .invalidAccessCode
        case .malformedURL, .invalidPIN, .pinMismatch, .trivialPIN, .invalidEmail, .unknownIdentity,
            .ambiguousIdentity, .unreadableImage, .storeUnavailable, .badInput, .noHolderProof:
            return .badInput
        case .hostMismatch, .cancelled: return .cancelled
        case .wrongPIN, .wrongCurrentPIN: return .incorrectPIN
        case .invalidToken: return .invalidToken
        case .blocked: return .blocked
        case .accessCodeExpired: return .incorrectAccessNumber
        case .identityNotAuthorized, .refused: return .identityNotAuthorized
        case .notRegistered(_, .blocked, _): return .blocked
        case .notRegistered(_, .revoked, _): return .identityNotAuthorized
        case .notActivated, .registrationExpired, .notRegistered: return .identityNotVerified
        case .authenticationTimeout: return .authenticationTimeout
        case .networkError, .timeout: return .networkError
        case .notMPinServer, .unexpectedResponse: return .unexpectedResponse
        case .rateLimited: return .rateLimited
        }
    }

    public var message: String {
        switch self {
        case let .missingAccessCode(payload):
            return
                "The payload \"\(payload.prefix(200))\" has no access code: it must look like URL#CODE, as the sign-in page shows it in its command (zkpin login 'URL#CODE', above the QR code). Copy that command (its Copy the command button does), or use --image with a picture of the QR code."
        case let .invalidAccessCode(code, reason):
            return
                "The access code \"\(code.prefix(40))\" is not valid (\(reason)). Check the digits on the login page and try again; if the page shows a new code, use that one."
        case let .malformedURL(text):
            return
                "\"\(text.prefix(200))\" is not a usable server URL: it must start with http:// or https:// and name a host. Check the address and try again."
        case let .invalidPIN(reason):
            return "The PIN was not accepted: \(reason). A PIN is exactly 4 digits; try again."
        case .pinMismatch:
            return "The two PINs differ, so none was stored. Run the command again and type the same 4 digits twice."
        case let .trivialPIN(reason):
            return "The new PIN is easy to guess (\(reason)), so it was not stored: choose another, or pass --allow-trivial-pin to keep it anyway."
        case let .invalidEmail(text):
            return "\"\(text.prefix(254))\" is not an e-mail address. Give the address the activation mail should go to, like alice@example.com."
        case let .unknownIdentity(userId, server):
            let who = userId.map { " \"\($0)\"" } ?? ""
            let whereText = server.map { " for \($0)" } ?? ""
            return
                "There is no stored identity\(who)\(whereText). Run `zkpin users` to see the stored ones, or `zkpin register EMAIL --server \(server ?? "URL")` to create one."
        case let .ambiguousIdentity(server, userIds):
            return "Several identities are stored for \(server): \(userIds.joined(separator: ", ")). Choose one with --user EMAIL."
        case let .unreadableImage(path, reason):
            return
                "Could not read a QR code from \(path): \(reason). Use a PNG file with the whole QR code visible, or pass the payload text instead."
        case let .hostMismatch(payloadHost, serviceHost):
            return
                "The payload points at \(payloadHost), but that server calls itself \(serviceHost). This may be a relay or a phishing page; nothing was sent. If you trust it, run again with --accept-host (you will be asked to type the host)."
        case let .storeUnavailable(path, reason):
            return
                "The identity store \(path) cannot be used: \(reason). Check --home or ZKPIN_HOME and the folder's permissions; the stored identities were not changed."
        case let .badInput(text):
            return text
        case let .noHolderProof(userId, server):
            return
                "The identity \(userId) at \(server) has no holder proof stored (it was registered by an older client), and the server asks for one here: sign in once with `zkpin login` to get one, then run this again."

        case let .wrongPIN(attemptsLeft):
            if let left = attemptsLeft {
                return
                    "Wrong PIN: \(left) attempt\(left == 1 ? "" : "s") left before the identity is blocked; the same code still works until it expires, so run the command again with it."
            }
            return "Wrong PIN; the same code still works until it expires, so run the command again with it."
        case let .wrongCurrentPIN(attemptsLeft):
            let left = attemptsLeft.map { " \($0) attempt\($0 == 1 ? "" : "s") left before the identity is blocked;" } ?? ""
            return
                "Wrong current PIN:\(left) the PIN was not changed. Run `zkpin change-pin` again and type the PIN you sign in with now."
        case .invalidToken:
            return "The server did not accept this identity's token. If this keeps happening, delete it with `zkpin delete EMAIL` and register again."
        case let .blocked(userId, server):
            let server = server ?? "URL"
            return
                "The identity \(userId) is blocked after too many wrong PINs. Ask the site's operator to unblock it (the next `zkpin login` then works with your PIN), or register again with `zkpin register \(userId) --server \(server)`."
        case .accessCodeExpired:
            return "The access code has expired or was already used. Reload the login page to get a new code, and run the command with that one."
        case let .identityNotAuthorized(userId, server):
            let server = server ?? "URL"
            return
                "The server does not accept the identity \(userId) (it was revoked or is unknown there), so this device now marks it REVOKED: register again with `zkpin register \(userId) --server \(server)`, or ask the site's operator."
        case let .notActivated(userId, waited):
            let waitedText = waited.map { " after waiting \($0) s" } ?? ""
            return
                "The identity \(userId) is not activated yet\(waitedText). Open the link in the activation mail, type the confirmation code, then run `zkpin confirm \(userId)`."
        case let .registrationExpired(userId, server):
            let server = server ?? "URL"
            return
                "The registration of \(userId) expired or was refused by the server before it was activated. Start again with `zkpin register \(userId) --server \(server)`."
        case let .notRegistered(userId, state, server):
            let server = server ?? "URL"
            switch state {
            case .blocked:
                return
                    "The identity \(userId) is still blocked after too many wrong PINs (the server said so), so no PIN was asked: ask the site's operator to unblock it, or register again with `zkpin register \(userId) --server \(server)`."
            case .revoked:
                return
                    "The identity \(userId) is revoked (the server still refuses it as revoked or unknown), so no PIN was asked: register again with `zkpin register \(userId) --server \(server)`, or ask the site's operator."
            case .startedRegistration, .activated:
                return "The identity \(userId) has not finished its registration. Run `zkpin confirm \(userId)` after confirming the mailed link."
            default:
                return "The identity \(userId) has no token. Register it with `zkpin register \(userId) --server \(server)`."
            }
        case .authenticationTimeout:
            return "The PIN was right, but the login page did not take the login up in time. Keep the page open, get a new code and try again."
        case let .cancelled(text):
            return text
        case let .refused(text):
            return text

        case let .networkError(url, reason):
            return "Could not reach \(url): \(reason). Check the address and your connection, then try again."
        case let .timeout(url, seconds):
            let within = seconds.map { " within \($0) s" } ?? " in time"
            return
                "\(url) did not answer\(within). Try again later or with a longer --timeout SECONDS; if it keeps happening, tell the site's operator."
        case let .notMPinServer(url, reason):
            return "\(url) does not answer like an M-Pin server (\(reason)). Check that the URL is the site's login address."
        case let .unexpectedResponse(url, status, detail):
            return "\(url) answered HTTP \(status): \(detail). Nothing was changed on this device; try again later or tell the site's operator."
        case let .rateLimited(url, detail):
            // The server says which limit (another login of this identity still running, too
            // many logins from this address, ...): a race of wrong PINs used to end in a
            // generic "too many attempts" that read like an unexpected answer.
            let why = detail.map { ": \($0)" } ?? " because of too many attempts"
            return "\(url) asked to slow down\(why). Nothing was changed on this device; wait a little and try again."
        }
    }

    public var description: String { message }

    /// The attempts left after a wrong PIN, when the server said (`--json` carries it as
    /// `attemptsLeft`).
    public var attemptsLeft: Int? {
        switch self {
        case let .wrongPIN(left), let .wrongCurrentPIN(left): return left
        default: return nil
        }
    }
}
