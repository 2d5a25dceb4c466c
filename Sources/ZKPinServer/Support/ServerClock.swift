import Foundation

/// The server's notion of now (Unix seconds); tests inject a manual clock so expiry is tested
/// without sleeping.
public struct ServerClock: Sendable {
    let read: @Sendable () -> Int
    public init(_ read: @escaping @Sendable () -> Int) { self.read = read }
    public static let system = ServerClock { Int(Date().timeIntervalSince1970) }
    public var now: Int { read() }
}

/// A clock that moves only when told to (tests).
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int
    public init(_ start: Int = Int(Date().timeIntervalSince1970)) { value = start }
    public var now: Int { lock.withLock { value } }
    public func advance(_ seconds: Int) { lock.withLock { value += seconds } }
    public var clock: ServerClock { ServerClock { [self] in self.now } }
}

enum ISOTime {
    static func string(_ unix: Int) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}
