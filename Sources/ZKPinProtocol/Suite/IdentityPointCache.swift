import Synchronization

/// HID = map(HASH_ID(ID)) and, with time permits, HTID = HID + map(date, HASH_ID(ID)) of
/// recent logins, by identity and day. Both are public values (anyone can compute them from
/// the mpinId), so keeping them is no secret at rest. Bounded: when full it starts again
/// empty, which costs one hash per identity and keeps memory flat whatever the callers send.
final class IdentityPointCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: [UInt8]
        /// 0 for HID, the UTC day for HTID.
        var date: Int
    }
    /// A G1Point of the suite's curve (the cache belongs to one prepared secret, one curve).
    struct Entry: @unchecked Sendable { var point: Any }

    static let capacity = 100_000
    private let entries = Mutex<[Key: Entry]>([:])

    /// The cached point, or `compute()` remembered.
    func point<P>(id: [UInt8], date: Int, _ compute: () -> P) -> P {
        let key = Key(id: id, date: date)
        if let cached = entries.withLock({ $0[key] })?.point as? P { return cached }
        let point = compute()
        entries.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = Entry(point: point)
        }
        return point
    }
}
