/// HID = map(HASH_ID(ID)) and, with time permits, HTID = HID + map(date, HASH_ID(ID)) of
/// recent logins, by identity and day, each with its odd multiples (`G1OddMultiples`, for
/// y·HID). Both are public values (anyone can compute them from the mpinId), so keeping them is
/// no secret at rest. An entry takes about 2.1 KB (BN254CX) or 3.1 KB (BLS12-381), so at most
/// `capacity` of them (16,384 by default, about 34 or 51 MB; the server's `identity-cache`
/// setting); a miss costs a hash to the curve and the tables (96 doublings, 32 additions and one
/// inversion).
final class IdentityPointCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: [UInt8]
        /// 0 for HID, the UTC day for HTID.
        var date: Int
    }

    /// Entries kept when no other number is given.
    static let defaultCapacity = 16_384

    private let cache: BoundedCache<Key>

    init(capacity: Int = defaultCapacity) { cache = BoundedCache<Key>(capacity: max(1, capacity)) }

    /// The most entries kept.
    var capacity: Int { cache.capacity }

    /// The entries kept now.
    var count: Int { cache.count }

    /// The cached point, or `compute()` remembered.
    func point<P>(id: [UInt8], date: Int, _ compute: () -> P) -> P {
        cache.value(Key(id: id, date: date), compute)
    }
}
