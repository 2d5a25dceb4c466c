import Synchronization

/// Objects that hold descriptors (a server's store), watched weakly with the name of the test
/// that made them: when the test process runs short of descriptors, the ones still alive long
/// after their test ended are the leaks (`TooManyDescriptors` names them).
public enum LiveObjects {
    private final class Entry: @unchecked Sendable {  // `object` is only read under the lock
        weak var object: AnyObject?
        let label: String
        init(_ object: AnyObject, _ label: String) {
            self.object = object
            self.label = label
        }
    }

    private static let entries = Mutex<[Entry]>([])

    public static func track(_ object: AnyObject, as label: String) {
        entries.withLock { list in
            list.removeAll { $0.object == nil }
            list.append(Entry(object, label))
        }
    }

    /// The labels of the watched objects still alive, each with how many.
    public static func alive() -> [String] {
        let labels = entries.withLock { list in list.compactMap { $0.object == nil ? nil : $0.label } }
        var counts: [String: Int] = [:]
        for label in labels { counts[label, default: 0] += 1 }
        return counts.sorted { $0.value > $1.value }.map { "\($0.key) ×\($0.value)" }
    }
}
