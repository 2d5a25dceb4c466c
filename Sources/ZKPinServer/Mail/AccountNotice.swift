import Foundation

/// The mails that tell a person what happened to their identities when they did not do it
/// themselves (an operator revoked a device), so a surprise reaches them.
public enum AccountNotice {
    /// `devices`: the names of the identities that were revoked ("" for an unnamed one).
    public static func revoked(userId: String, devices: [String], serviceName: String, publicURL: String, from: String) -> Mail {
        let names = devices.map { $0.isEmpty ? "(not named)" : $0 }
        let body = """
            The administrator of \(serviceName) (\(publicURL)) revoked \(devices.count == 1 ? "the ZKPin identity" : "\(devices.count) ZKPin identities") of \(userId):

            \(names.map { "  device: \($0)" }.joined(separator: "\n"))

            \(devices.count == 1 ? "That device" : "Those devices") can no longer sign in. To sign in again from \(devices.count == 1 ? "it" : "one of them"),
            register it again with your client (zkpin register \(userId) --server \(publicURL)).

            If you did not expect this, contact the administrator of \(serviceName).
            """
        return Mail(from: from, to: userId, subject: "Your \(serviceName) sign-in was revoked", body: body)
    }

    /// The person revoked one of their identities on the account page ("this device is lost").
    public static func revokedByPerson(userId: String, device: String, serviceName: String, publicURL: String, from: String) -> Mail {
        let body = """
            The ZKPin identity of \(userId) on \(serviceName) (\(publicURL)) for this device was revoked
            from the account page:

              device: \(device.isEmpty ? "(not named)" : device)

            That device can no longer sign in. To use it again, register it again with your client.

            If you did not do this, someone used a session signed in as you: sign in, check your
            devices on the account page, and contact the administrator of \(serviceName).
            """
        return Mail(from: from, to: userId, subject: "A \(serviceName) device was revoked", body: body)
    }

    /// Wrong PINs blocked the identity `device` of `userId`.
    public static func blocked(userId: String, device: String, maxAttempts: Int, serviceName: String, publicURL: String, from: String) -> Mail {
        let body = """
            Your ZKPin identity for \(userId) on \(serviceName) (\(publicURL)) was blocked after \(maxAttempts) wrong PIN\(maxAttempts == 1 ? "" : "s").

              device: \(device.isEmpty ? "(not named)" : device)

            Only a PIN tried with this identity's token counts, so either you mistyped your PIN
            or someone has used that device. It cannot sign in until the administrator of
            \(serviceName) unblocks it (ask them), or you register the device again with your
            client (zkpin register \(userId) --server \(publicURL)).

            If you did not try to sign in, make sure the device is in safe hands.
            """
        return Mail(from: from, to: userId, subject: "Your \(serviceName) sign-in was blocked", body: body)
    }

    /// The person answered "Not me" on `device` to `request` ("sign in to Wiki as ...", "Bank
    /// asks you to approve: ..."), asked from `address` when known; `blocked`: their identities
    /// were blocked with it (`--not-me-blocks on`).
    public static func notMe(
        userId: String, device: String, request: String, address: String?, blocked: Bool, serviceName: String, publicURL: String,
        from: String
    ) -> Mail {
        let asked = address.map { " (asked from the address \($0))" } ?? ""
        let outcome =
            blocked
            ? """
            Your identities for \(userId) on \(serviceName) are blocked until its administrator
            unblocks them, so nobody can sign in as you meanwhile (you neither). Ask them to
            unblock your identity when you are ready.
            """
            : """
            Nothing was signed in or approved. If this happens again, tell the administrator of
            \(serviceName).
            """
        let body = """
            A request came to your device \(device.isEmpty ? "(not named)" : device): \(request)\(asked).
            You answered "Not me", and it was denied.

            \(outcome)

            \(serviceName): \(publicURL)
            """
        return Mail(from: from, to: userId, subject: "A request you did not make was denied", body: body)
    }
}
