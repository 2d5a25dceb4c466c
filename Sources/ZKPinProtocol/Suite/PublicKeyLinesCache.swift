import Synchronization

/// The prepared Miller-loop lines of recent DVS signers' Pa, by Pa's bytes. A Pa enters only
/// after it decoded and passed the G2 membership check, so a hit needs neither again. Pa is
/// public (it ends the mpinId), so keeping its lines is no secret at rest. Bounded: each entry
/// is about 15 KB (BN254CX) or 20 KB (BLS12-381); when full it starts again empty, which costs
/// one preparation per signer and keeps memory flat (at most about 10 MB) whatever callers send.
final class PublicKeyLinesCache: Sendable {
    /// A G2Prepared of the suite's curve (the cache belongs to one prepared secret, one curve).
    struct Entry: @unchecked Sendable { var lines: Any }

    static let capacity = 512
    private let entries = Mutex<[[UInt8]: Entry]>([:])

    /// The cached lines of `publicKey`, or `prepare()` remembered; a throw remembers nothing.
    func lines<P>(_ publicKey: [UInt8], _ prepare: () throws(MPinError) -> P) throws(MPinError) -> P {
        if let cached = entries.withLock({ $0[publicKey] })?.lines as? P { return cached }
        let lines = try prepare()
        entries.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[publicKey] = Entry(lines: lines)
        }
        return lines
    }

    var count: Int { entries.withLock { $0.count } }
}
