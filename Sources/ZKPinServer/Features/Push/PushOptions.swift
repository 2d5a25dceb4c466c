import Foundation

/// The Push feature's settings.
public struct PushOptions: Sendable {
    /// Where the server may send (`--push-services`): a subscription elsewhere is refused when
    /// it is stored, so no client can make the server call an address of its choosing.
    public var services: PushServices = .default
    /// VAPID's `sub`: how the push service reaches the operator (`mailto:` or https).
    public var subject: String
    /// Subscriptions one identity (device) may hold.
    public var subscriptionsPerIdentity = 10
    /// Seconds a claimed delivery is left to its sender before another may take it.
    public var lease = 60
    /// Seconds each send may take, whatever the push service does.
    public var sendTimeout = 15

    public init(subject: String) { self.subject = subject }

    /// The subject when none is set: the public URL when it is https, else the mail sender's
    /// address (`Name <address>` gives `address`).
    public static func defaultSubject(publicURL: String, mailFrom: String) -> String {
        if publicURL.hasPrefix("https://") { return publicURL }
        var address = mailFrom
        if let open = mailFrom.lastIndex(of: "<"), let close = mailFrom.lastIndex(of: ">"), open < close {
            address = String(mailFrom[mailFrom.index(after: open)..<close])
        }
        return "mailto:" + address.trimmingCharacters(in: .whitespaces)
    }
}
