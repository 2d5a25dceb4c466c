/// How the twist E' maps into E over Fp12 (spec section 1).
public enum TwistType: Sendable {
    /// D-type: (x, y) -> (x·k^2, y·k^3) (BN254CX).
    case divisive
    /// M-type: (x, y) -> (x·k^-2, y·k^-3) (BLS12-381).
    case multiplicative
}

/// The family a curve belongs to, which decides the shape of the optimal ate Miller loop.
public enum PairingFamily: Sendable {
    /// Barreto-Naehrig: loop over 6u+2, then the two Frobenius lines.
    case bn
    /// BLS12: loop over u.
    case bls12
}

/// Everything that distinguishes one pairing-friendly curve from another. The generic field,
/// curve and pairing code reads only these static members, so each curve gets its own
/// specialised copy of the arithmetic.
public protocol PairingCurve: Sendable {
    associatedtype Field: CyclotomicSquaring
    /// `bn254cx` or `bls12-381`.
    static var name: String { get }
    static var family: PairingFamily { get }
    static var twist: TwistType { get }
    /// The curve parameter u (negative on both curves).
    static var u: BigInt { get }
    /// The group order r.
    static var order: BigInt { get }
    /// r as little-endian limbs, for the GMP-free arithmetic of secret scalars (`SecretScalar`).
    static var orderLimbs: [UInt64] { get }
    /// Bytes of an encoded scalar (PGS).
    static var scalarByteCount: Int { get }
    /// The G1 cofactor that mapit multiplies by (1 for BN254CX).
    static var g1Cofactor: BigInt { get }
    static var g1CofactorIsOne: Bool { get }
    /// The cube root of unity β with (β·x, y) = -u^2·(x, y) on G1, for the fast subgroup
    /// check; nil when G1 needs none (cofactor 1).
    static var g1EndomorphismBeta: Fp<Field>? { get }
    /// φ(x, y) = (β·x, y) on G1 with its eigenvalue λ, for GLV scalar multiplication.
    static var g1Endomorphism: G1Endomorphism<Self> { get }
    /// ψ on G2 and x -> x^p on GT with the 4-dimensional decomposition (GLS, GT powers).
    static var frobeniusEndomorphism: FrobeniusEndomorphism<Self> { get }
    static var g1B: Fp<Field> { get }
    static var g1B3: Fp<Field> { get }
    /// 3b as a machine word (3b is small on both curves: `G1.timesB3`).
    static var g1B3Multiple: UInt64 { get }
    static var g2B: Fp2<Field> { get }
    static var g2B3: Fp2<Field> { get }
    /// g2B3 = g2B3Multiple·(1 - i) when g2B3MinusI, else g2B3Multiple·(1 + i) (`G2.timesB3`).
    static var g2B3Multiple: UInt64 { get }
    static var g2B3MinusI: Bool { get }
    static var g1Generator: G1Point<Self> { get }
    static var g2Generator: G2Point<Self> { get }
    /// The Miller-loop lines of the G2 generator, computed once.
    static var g2GeneratorPrepared: G2Prepared<Self> { get }
    /// |u| and its sign, as machine words for the exponentiations by u.
    static var uMagnitude: UInt64 { get }
    static var uIsNegative: Bool { get }
    /// The Miller loop length: |6u+2| (BN) or |u| (BLS12).
    static var ateLoopCount: BigInt { get }
    /// `ateLoopCount` as NAF digits (-1, 0, 1), little-endian: the Miller loop's schedule.
    static var ateLoopNAF: [Int8] { get }
    /// The Miller loop's steps (`MillerStep.schedule` of the digits above), computed once.
    static var millerSchedule: [MillerStep] { get }
}

/// What only BLS12 curves have (`family == .bls12`; BN curves carry none of it).
public protocol BLS12Curve: PairingCurve {
    /// |u-1|/3, the one dense exponent of the BLS12 final exponentiation (`Pairing.bls12HardPart`).
    static var bls12HardPartThird: [UInt64] { get }
    /// `bls12HardPartThird` as width-5 NAF digits.
    static var bls12HardPartThirdNAF: [Int8] { get }
}

extension BLS12Curve {
    /// |u-1| / 3 (an integer since u = 1 mod 3).
    public static func computeHardPartThird() -> [UInt64] {
        let third = (u - BigInt(1)) / BigInt(3)
        precondition(third * BigInt(3) == u - BigInt(1), "u - 1 must be a multiple of 3 on a BLS12 curve")
        return third.magnitude.limbs(count: (third.magnitude.bitWidth + 63) / 64)
    }
}

extension PairingCurve {
    /// (p^4 - p^2 + 1) / r, the hard part of the final exponent.
    static var hardPartExponent: BigInt {
        let p = Field.modulusBig
        let exponent = (p.power(4) - p.power(2) + BigInt(1)) / order
        precondition((exponent * order) == (p.power(4) - p.power(2) + BigInt(1)), "r must divide p^4 - p^2 + 1")
        return exponent
    }

    /// The primitive cube root of unity β in Fp for which φ(x, y) = (β·x, y) acts on G1 as
    /// multiplication by -u^2 (the other root acts as u^2 - 1).
    public static func findG1EndomorphismBeta() -> Fp<Field> {
        findG1EndomorphismBeta(lambda: (-(u * u)).mod(order))
    }

    /// The primitive cube root of unity β in Fp for which φ(x, y) = (β·x, y) acts on G1 as
    /// multiplication by `lambda` (a root of λ^2 + λ + 1 mod r).
    public static func findG1EndomorphismBeta(lambda: BigInt) -> Fp<Field> {
        let exponent = (Field.modulusBig - BigInt(1)) / BigInt(3)
        var base = 2
        var root = Fp<Field>(base).power(exponent)
        while root == .one {
            base += 1
            root = Fp<Field>(base).power(exponent)
        }
        let g = g1Generator
        let target = g.multiplied(byPublic: lambda.mod(order))
        for beta in [root, root.squared] where Point(projectiveX: beta * g.x, y: g.y, z: g.z) == target {
            return beta
        }
        preconditionFailure("no cube root of unity acts as λ on G1")
    }

    /// Parses a spec constant; a typo here is a programming error.
    public static func constant(_ hex: String) -> BigInt {
        guard let value = BigInt(hex: hex) else { preconditionFailure("bad constant \(hex)") }
        return value
    }
}
