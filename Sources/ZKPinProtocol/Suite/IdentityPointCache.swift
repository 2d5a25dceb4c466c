/// HID = map(HASH_ID(ID)) and, with time permits, HTID = HID + map(date, HASH_ID(ID)) of
/// recent logins, by identity and day. Both are public values (anyone can compute them from
/// the mpinId), so keeping them is no secret at rest.
final class IdentityPointCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: [UInt8]
        /// 0 for HID, the UTC day for HTID.
        var date: Int
    }

    private let cache = BoundedCache<Key>(capacity: 100_000)

    /// The cached point, or `compute()` remembered.
    func point<P>(id: [UInt8], date: Int, _ compute: () -> P) -> P {
        cache.value(Key(id: id, date: date), compute)
    }
}
