import Foundation

/// The server's notion of now (Unix seconds); tests inject a manual clock so expiry is tested
/// without sleeping.
public struct ServerClock: Sendable {
    let read: @Sendable () -> Int
    public init(_ read: @escaping @Sendable () -> Int) { self.read = read }
    public static let system = ServerClock { Int(Date().timeIntervalSince1970) }
    public var now: Int { read() }
}

enum ISOTime {
    static func string(_ unix: Int) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}
