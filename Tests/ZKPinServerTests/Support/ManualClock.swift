import Foundation
import ZKPinServer

/// A clock that moves only when told to, so expiry is tested without sleeping.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int
    init(_ start: Int = Int(Date().timeIntervalSince1970)) { value = start }
    var now: Int { lock.withLock { value } }
    func advance(_ seconds: Int) { lock.withLock { value += seconds } }
    var clock: ServerClock { ServerClock { [self] in self.now } }
}
