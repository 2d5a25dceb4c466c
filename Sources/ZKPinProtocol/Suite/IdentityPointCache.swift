/// HID = map(HASH_ID(ID)) and, with time permits, HTID = HID + map(date, HASH_ID(ID)) of
/// recent logins, by identity and day, each with its odd multiples (`G1OddMultiples`, for
/// y·HID). Both are public values (anyone can compute them from the mpinId), so keeping them is
/// no secret at rest. An entry takes about 2.1 KB (BN254CX) or 3.1 KB (BLS12-381), so 16,384 of
/// them at most (about 34 or 51 MB; 100,000 when it kept the points alone); a miss costs a hash
/// to the curve and the tables (96 doublings, 32 additions and one inversion).
final class IdentityPointCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: [UInt8]
        /// 0 for HID, the UTC day for HTID.
        var date: Int
    }

    private let cache = BoundedCache<Key>(capacity: 16_384)

    /// The cached point, or `compute()` remembered.
    func point<P>(id: [UInt8], date: Int, _ compute: () -> P) -> P {
        cache.value(Key(id: id, date: date), compute)
    }
}
