import Foundation
import ZKPinProtocol
import ZKPinWire

/// The sign-in before this session's, for the account page ("Previous sign-in"): the session's
/// own login is the newest, so it is the one before it.
struct PreviousSignIn: Sendable, Equatable {
    var time: Int
    /// The device name of the identity it used, when that identity is still listed.
    var device: String?
    var address: String?

    /// The second newest `login` event of `events` (oldest first, as the audit log gives them).
    static func from(_ events: [AuditEvent], devices: [DeviceView]) -> PreviousSignIn? {
        let logins = events.filter { $0.kind == "login" }
        guard logins.count >= 2 else { return nil }
        let event = logins[logins.count - 2]
        return PreviousSignIn(
            time: event.time, device: devices.first { $0.mpinId == event.mpinId }?.device, address: event.address)
    }
}

/// A short name for one device in a URL (`/account?revoked=HANDLE`): the first 8 bytes of
/// SHA-256 of its mpinId, so the page can say which device was revoked without a long mpinId
/// in the address; only a revoked device of the signed-in person is ever named by it.
enum DeviceHandle {
    static func of(_ mpinId: String) -> String {
        Hex.encode(Array(Digest.sha256(Array(mpinId.utf8)).prefix(8)))
    }
}

/// Times on the pages: minutes in UTC, short enough to stay on one line on a phone
/// ("2026-11-28 21:05 UTC"); the exact time goes in `<time datetime>`.
enum PageTime {
    static func text(_ unix: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: TimeInterval(unix)))
        func two(_ n: Int?) -> String { String(format: "%02d", n ?? 0) }
        return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)) UTC"
    }
}
