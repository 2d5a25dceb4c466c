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
}
