/// The U and UT that pass 1 decoded and validated, by their bytes, until pass 2 verifies the same
/// bytes: decoding is a function of the bytes, so the point pass 1 validated is the point pass 2
/// would decode, and the G1 membership check (about 40 us on BLS12-381, the largest part of a
/// decode) runs once per login instead of twice. Like `PublicKeyLinesCache`, a point enters
/// only after it passed full validation. Pass 2 takes its entry out; a login that never comes
/// back leaves one until the cache starts again empty. U and UT are public (they cross the
/// wire), so keeping them is no secret at rest. About 350 bytes an entry: 8,192 of them, at most
/// about 3 MB. A pass 2 on another instance, or after the cache started again, decodes as before.
final class LoginPointCache: Sendable {
    private let cache = BoundedCache<[UInt8]>(capacity: 8192)

    func remember<P>(_ bytes: [UInt8], _ point: P) { cache.insert(bytes, point) }

    /// The point pass 1 validated from exactly these bytes, taken out; nil when there is none.
    func take<P>(_ bytes: [UInt8]) -> P? { cache.take(bytes) }

    var count: Int { cache.count }
}
