/// Why a byte string is not a valid point (spec section 6). Every case is result code -14.
public enum PointDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongLength(expected: Int, got: Int)
    case wrongPrefix(UInt8)
    case coordinateOutOfRange
    case notOnCurve
    case infinity
    case notInSubgroup

    public var description: String {
        switch self {
        case let .wrongLength(expected, got): return "wrong length: expected \(expected) bytes, got \(got)"
        case let .wrongPrefix(byte): return "wrong prefix byte 0x\([byte].hexString) (expected 0x04)"
        case .coordinateOutOfRange: return "a coordinate is not below the field modulus"
        case .notOnCurve: return "the point is not on the curve"
        case .infinity: return "the point at infinity is not allowed here"
        case .notInSubgroup: return "the point is not in the prime-order subgroup"
        }
    }
}

/// Encodings of spec section 2, with the full validation of section 6 on decode.
public enum PointEncoding<C: PairingCurve> {
    public static var g1ByteCount: Int { 1 + 2 * C.Field.byteCount }
    public static var g2ByteCount: Int { 4 * C.Field.byteCount }

    /// `0x04 ‖ x ‖ y`. Traps on infinity, which no protocol value may be.
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func encode(_ point: G1Point<C>) -> [UInt8] {
        guard let (x, y) = point.affine else { preconditionFailure("cannot encode the point at infinity") }
        var out: [UInt8] = [0x04]
        out.reserveCapacity(g1ByteCount)
        x.appendBytes(to: &out)
        y.appendBytes(to: &out)
        return out
    }

    /// `Xa ‖ Xb ‖ Ya ‖ Yb`, no prefix byte.
    public static func encode(_ point: G2Point<C>) -> [UInt8] {
        guard let (x, y) = point.affine else { preconditionFailure("cannot encode the point at infinity") }
        return x.bytes + y.bytes
    }

    /// Decodes and fully validates a G1 point: length, prefix, range, curve, subgroup.
    public static func decodeG1(_ bytes: some Collection<UInt8>) throws(PointDecodingError) -> G1Point<C> {
        let array = Array(bytes)
        let size = C.Field.byteCount
        guard array.count == g1ByteCount else { throw .wrongLength(expected: g1ByteCount, got: array.count) }
        guard array[0] == 0x04 else { throw .wrongPrefix(array[0]) }
        guard let x = Fp<C.Field>(bytes: array[1...size]),
            let y = Fp<C.Field>(bytes: array[(1 + size)...])
        else { throw .coordinateOutOfRange }
        guard !(x.isZero && y.isZero) else { throw .infinity }
        let point = G1Point<C>(x: x, y: y)
        guard point.isOnCurve else { throw .notOnCurve }
        guard point.isInSubgroup else { throw .notInSubgroup }
        return point
    }

    /// Decodes and fully validates a G2 point.
    public static func decodeG2(_ bytes: some Collection<UInt8>) throws(PointDecodingError) -> G2Point<C> {
        let array = Array(bytes)
        let size = C.Field.byteCount
        guard array.count == g2ByteCount else { throw .wrongLength(expected: g2ByteCount, got: array.count) }
        guard let x = Fp2<C.Field>(bytes: array[0..<(2 * size)]),
            let y = Fp2<C.Field>(bytes: array[(2 * size)...])
        else { throw .coordinateOutOfRange }
        // An all-zero encoding is how some libraries write infinity; it is never valid here.
        guard !(x.isZero && y.isZero) else { throw .infinity }
        let point = G2Point<C>(x: x, y: y)
        guard point.isOnCurve else { throw .notOnCurve }
        guard point.isInSubgroup else { throw .notInSubgroup }
        return point
    }
}
