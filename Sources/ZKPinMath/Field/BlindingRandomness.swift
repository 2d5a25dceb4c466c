#if canImport(Glibc)
    import Glibc
#endif

/// Operating-system randomness for the blinded inversion, drawn a pool at a time: one
/// getrandom call (about 0.5 us on the project's host, a fifth of an inversion) per 4 KiB
/// instead of one per inversion. Every byte is handed out once and zeroed in the pool as it
/// goes. The pool is per process: a fork would share its unused bytes (ZKPin does not fork).
@usableFromInline
func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) {
    let count = buffer.count
    guard count <= MemoryLayout<SIMD8<UInt64>>.size else { return BlindingPool.fillFromSystem(buffer) }
    // The bytes leave the lock as a value (the caller's buffer may not cross into it).
    var taken = blindingPool.withLock { $0.take(count) }
    withUnsafeBytes(of: &taken) { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
}

private let blindingPool = LockedValue(BlindingPool())

final class BlindingPool {
    static let size = 4096
    private var bytes: UnsafeMutableRawBufferPointer
    private var used: Int

    init() {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.size, alignment: 16)
        used = Self.size  // filled on first use
    }

    deinit { bytes.deallocate() }

    /// The next `count` (at most 64) unused bytes, at the start of the value.
    func take(_ count: Int) -> SIMD8<UInt64> {
        if used + count > Self.size {
            Self.fillFromSystem(bytes)
            used = 0
        }
        var taken = SIMD8<UInt64>()
        let source = UnsafeMutableRawBufferPointer(rebasing: bytes[used..<used + count])
        withUnsafeMutableBytes(of: &taken) { $0.copyMemory(from: UnsafeRawBufferPointer(source)) }
        source.initializeMemory(as: UInt8.self, repeating: 0)
        used += count
        return taken
    }

    static func fillFromSystem(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
            arc4random_buf(buffer.baseAddress!, buffer.count)
        #else
            var generator = SystemRandomNumberGenerator()
            for i in 0..<buffer.count { buffer[i] = UInt8.random(in: .min ... .max, using: &generator) }
        #endif
    }
}
