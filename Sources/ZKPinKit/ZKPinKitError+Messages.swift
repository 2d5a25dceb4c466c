import ZKPinClientCore

extension ZKPinKitError {
    /// What an app shows for a flow's error. The flows' own texts are the command line's (they
    /// name `zkpin` commands and options); these name what a person does in an app instead.
    /// The texts with nothing of the command line in them are kept.
    static func message(for error: ClientError) -> String {
        switch error {
        case .missingAccessCode:
            return "This is not a sign-in code: scan the QR code the sign-in page shows, or paste its link (it ends in # and digits)."
        case .pinMismatch:
            return "The two PINs differ, so none was stored. Type the same 4 digits twice."
        case let .trivialPIN(reason):
            return "The new PIN is easy to guess (\(reason)), so it was not stored: choose another."
        case let .unknownIdentity(userId, server):
            let who = userId.map { " \($0)" } ?? ""
            let whereText = server.map { " for \($0)" } ?? ""
            return "There is no identity\(who)\(whereText) on this device. Register first."
        case let .ambiguousIdentity(server, userIds):
            return "Several identities are on this device for \(server) (\(userIds.joined(separator: ", "))): choose one."
        case let .unreadableImage(_, reason):
            return "The picture holds no readable QR code (\(reason)). Scan the whole code again."
        case let .hostMismatch(payloadHost, serviceHost):
            return
                "This code points at \(payloadHost), but that server calls itself \(serviceHost). It may be a relay or a phishing page: nothing was sent."
        case let .storeUnavailable(_, reason):
            return "The identities on this device cannot be read or saved (\(reason)); none was changed."
        case let .noHolderProof(userId, server):
            return "The identity \(userId) at \(server) was registered without a holder proof, which this server asks for: register it again."
        case let .wrongPIN(attemptsLeft):
            guard let left = attemptsLeft else { return "Wrong PIN. The same code still works until it expires: try again." }
            return
                "Wrong PIN: \(left) attempt\(left == 1 ? "" : "s") left before the identity is blocked. The same code still works until it expires."
        case let .wrongCurrentPIN(attemptsLeft):
            let left = attemptsLeft.map { " \($0) attempt\($0 == 1 ? "" : "s") left before the identity is blocked;" } ?? ""
            return "Wrong current PIN:\(left) the PIN was not changed. Type the PIN you sign in with now."
        case .invalidToken:
            return "The server did not accept this identity's token. If it keeps happening, remove the identity and register again."
        case let .blocked(userId, _), let .notRegistered(userId, .blocked, _):
            return
                "The identity \(userId) is blocked after too many wrong PINs. Ask the site's operator to unblock it, or register again."
        case .accessCodeExpired:
            return "The code has expired or was already used. Reload the sign-in page and scan its new code."
        case let .identityNotAuthorized(userId, _), let .notRegistered(userId, .revoked, _):
            return "The server no longer accepts the identity \(userId) (it was revoked): register again, or ask the site's operator."
        case let .notActivated(userId, _):
            return
                "The identity \(userId) is not activated yet: open the link in the activation mail, type the confirmation code there, then continue."
        case let .registrationExpired(userId, _):
            return "The registration of \(userId) expired or was refused before it was activated: register again."
        case let .notRegistered(userId, .startedRegistration, _), let .notRegistered(userId, .activated, _):
            return "The identity \(userId) has not finished its registration: confirm the mailed link, then continue."
        case let .notRegistered(userId, _, _):
            return "The identity \(userId) has no token on this device: register it."
        case let .timeout(url, seconds):
            let within = seconds.map { " within \($0) s" } ?? " in time"
            return "\(url) did not answer\(within). Try again later; if it keeps happening, tell the site's operator."
        case .invalidAccessCode, .malformedURL, .invalidPIN, .invalidEmail, .badInput, .authenticationTimeout, .cancelled,
            .refused, .networkError, .notMPinServer, .unexpectedResponse, .rateLimited:
            return error.message
        }
    }
}
