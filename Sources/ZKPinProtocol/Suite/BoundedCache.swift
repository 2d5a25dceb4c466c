import ZKPinMath

/// A thread-safe map of values computed from public inputs, bounded: when full it starts again
/// empty, which costs one recomputation per key and keeps memory flat whatever callers send.
/// A value is stored only once it was computed; a computation that throws stores nothing.
/// Values are of the prepared secret's curve, held as `Any` (the suite is generic, its
/// prepared secret is not).
final class BoundedCache<Key: Hashable & Sendable>: Sendable {
    private struct Entry: @unchecked Sendable { var value: Any }

    let capacity: Int
    private let entries = LockedValue<[Key: Entry]>([:])

    init(capacity: Int) { self.capacity = capacity }

    /// The cached value of `key`, or `compute()` remembered.
    func value<Value, Failure: Error>(_ key: Key, _ compute: () throws(Failure) -> Value) throws(Failure) -> Value {
        if let cached = entries.withLock({ $0[key] })?.value as? Value { return cached }
        let value = try compute()
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = Entry(value: value)
        }
        return value
    }

    /// Stores `value` for `key` (starting again empty when full, as `value(_:_:)` does).
    func insert<Value>(_ key: Key, _ value: Value) {
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = Entry(value: value)
        }
    }

    /// The value of `key`, removed; nil when there is none of that type.
    func take<Value>(_ key: Key) -> Value? {
        entries.withLock { $0.removeValue(forKey: key) }?.value as? Value
    }

    var count: Int { entries.withLock { $0.count } }
}
