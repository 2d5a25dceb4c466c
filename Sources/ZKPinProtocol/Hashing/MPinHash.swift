import ZKPinMath

/// The hashes of spec section 3.
public enum MPinHash<C: PairingCurve> {
    /// SHA-256([n as 4 bytes big-endian when n > 0] ‖ x), left-padded with zeros to PFS bytes.
    public static func hashit(_ n: UInt32, _ x: some Collection<UInt8>) -> [UInt8] {
        var input = [UInt8]()
        if n > 0 { input = [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] }
        input.append(contentsOf: x)
        let digest = Digest.sha256(input)
        return [UInt8](repeating: 0, count: max(0, C.Field.byteCount - digest.count)) + digest
    }

    /// HASH_ID(ID): SHA-256 of the identity, padded to PFS bytes.
    public static func hashID(_ id: some Collection<UInt8>) -> [UInt8] { hashit(0, id) }

    /// Try-and-increment map to G1: the first x >= int(h) mod p with x^3 + b a non-zero square,
    /// the even square root, then the full G1 cofactor.
    public static func mapToG1(_ h: [UInt8]) -> G1Point<C> {
        let point = mapToCurve(h)
        return C.g1CofactorIsOne ? point : point.multiplied(byPublic: C.g1Cofactor)
    }

    /// The try-and-increment point on E(Fp) before the cofactor (outside G1 on BLS12-381).
    @_specialize(where C == BN254CX)
    @_specialize(where C == BLS12_381)
    public static func mapToCurve(_ h: [UInt8]) -> G1Point<C> {
        var x = Fp<C.Field>(BigInt(bytes: h))
        while true {
            let rhs = x.squared * x + C.g1B
            if !rhs.isZero, var y = rhs.squareRoot {
                if y.isOdd { y = -y }
                return G1Point<C>(x: x, y: y)
            }
            x = x + .one
        }
    }

    /// A = H(ID) = mapit(HASH_ID(ID)).
    public static func hashToG1(id: some Collection<UInt8>) -> G1Point<C> { mapToG1(hashID(id)) }

    /// The time-permit point AT = mapit(hashit(date, HASH_ID(ID))) for a day number > 0.
    public static func timePermitPoint(hashedID: [UInt8], date: Int) -> G1Point<C> {
        precondition(date > 0 && date <= Int(UInt32.max), "a time-permit date is a positive day number")
        return mapToG1(hashit(UInt32(date), hashedID))
    }

    /// HASH_ALL(HID, xID, xCID, SEC, Y, Z, T) as a scalar h = int(H) mod r; also the raw bytes.
    public static func hashAll(
        hashedID: [UInt8], u: [UInt8], ut: [UInt8]?, v: [UInt8], y: [UInt8],
        z: [UInt8], t: [UInt8]
    ) -> [UInt8] {
        hashit(0, hashedID + (ut ?? u) + v + y + z + t)
    }

    /// The one-pass challenge y = int(hashit(time, (UT or U) ‖ message)) mod r.
    public static func onePassChallenge(time: UInt32, u: [UInt8], ut: [UInt8]?, message: [UInt8] = []) -> BigInt {
        BigInt(bytes: hashit(time, (ut ?? u) + message)).mod(C.order)
    }
}
