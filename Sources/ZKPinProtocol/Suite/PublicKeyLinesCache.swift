/// The prepared Miller-loop lines of recent DVS signers' Pa, by Pa's bytes. A Pa enters only
/// after it decoded and passed the G2 membership check, so a hit needs neither again. Pa is
/// public (it ends the mpinId), so keeping its lines is no secret at rest. Each entry is about
/// 15 KB (BN254CX) or 20 KB (BLS12-381): 512 of them, at most about 10 MB.
final class PublicKeyLinesCache: Sendable {
    private let cache = BoundedCache<[UInt8]>(capacity: 512)

    /// The cached lines of `publicKey`, or `prepare()` remembered; a throw remembers nothing.
    func lines<P>(_ publicKey: [UInt8], _ prepare: () throws(MPinError) -> P) throws(MPinError) -> P {
        try cache.value(publicKey, prepare)
    }

    var count: Int { cache.count }
}
