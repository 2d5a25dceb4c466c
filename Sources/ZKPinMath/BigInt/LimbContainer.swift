/// Little-endian 64-bit limbs at indices 0..<count: what `LimbArithmetic`'s chains read and
/// write. The field elements' inline `LimbArray`s conform (their count is a static constant, so
/// the chains unroll once specialised), and so does `[UInt64]`, the secret scalars' limbs
/// (whose count is public: fixed per curve).
public protocol LimbContainer {
    var count: Int { get }
    subscript(index: Int) -> UInt64 { get set }
}

extension Array: LimbContainer where Element == UInt64 {}
