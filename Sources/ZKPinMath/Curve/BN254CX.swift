/// The prime field of BN254CX.
public enum BN254CXField: TowerParameters {
    public typealias Limbs = Limbs4
    @inlinable public static var modulus: Limbs4 {
        Limbs4(storage: (0xbe6623ef5c1b55b3, 0x243fd6ee18093ee1, 0xb0bddf647a6366d3, 0x2400000008702a0d))
    }
    @inlinable public static var negativeInverse: UInt64 { 0xef4e205bf9789e85 }
    @inlinable public static var rSquared: Limbs4 {
        Limbs4(storage: (0x1ab56897efb9b4e3, 0xa691c0713a431a9c, 0xb09d24432010d99d, 0x0984f9877b265a33))
    }
    @inlinable public static var montgomeryOne: Limbs4 {
        Limbs4(storage: (0xcb3504747b40a81b, 0x02411f7d57bf47d3, 0x2acee440a748303a, 0x03ffffffc4eed9a0))
    }
    public static var byteCount: Int { 32 }
    public static let modulusBig = BN254CX.constant("2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b3")
    public static let inverseExponent = (modulusBig - BigInt(2)).limbs(count: 4)
    public static let squareRootExponent = (modulusBig + BigInt(1)).shiftedRight(2).limbs(count: 4)
    public static let frobeniusDelta = computeFrobeniusDelta()
    public static let frobeniusDeltaSquared = frobeniusDelta.squared
    public static let frobeniusDeltaCubed = frobeniusDelta.squared * frobeniusDelta
}

/// BN254CX (Milagro's "CertiVox" BN curve): y^2 = x^3 + 2, D-type twist y^2 = x^3 + (1 - i).
public enum BN254CX: PairingCurve {
    public typealias Field = BN254CXField
    public static var name: String { "bn254cx" }
    public static var family: PairingFamily { .bn }
    public static var twist: TwistType { .divisive }
    public static let u = -constant("4000000003C012B1")
    public static let order = constant("2400000008702a0db0bddf647a6366d2c43fd6ee0cc906cebe11c0a636eb1f6d")
    public static var scalarByteCount: Int { 32 }
    public static let g1Cofactor = BigInt(1)
    public static var g1CofactorIsOne: Bool { true }
    public static let g1EndomorphismBeta: Fp<Field>? = nil
    /// λ = 36u^3 + 18u^2 + 6u + 1, a cube root of unity mod r = 36u^4 + 36u^3 + 18u^2 + 6u + 1.
    public static let g1Endomorphism = G1Endomorphism<BN254CX>(
        lambda: BigInt(36) * u * u * u + BigInt(18) * u * u + BigInt(6) * u + BigInt(1))
    public static let g1B = Fp<Field>(2)
    public static let g1B3 = Fp<Field>(6)
    public static let g2B = Fp2<Field>(Fp(1), Fp(-1))
    public static let g2B3 = Fp2<Field>(Fp(3), Fp(-3))
    public static let g1Generator = G1Point<BN254CX>(x: Fp(Field.modulusBig - BigInt(1)), y: Fp(1))
    public static let g2Generator = G2Point<BN254CX>(
        x: Fp2(Fp(constant("19682d2c7053b256358b2500f5c34bbb907c85bfa03e2726c0851ceee4d2ec74")),
               Fp(constant("1466b9ec3e19f64aa011c937a8e99743f81b97b0c209c30f47a58e8b2e29cfe1"))),
        y: Fp2(Fp(constant("0a79edd972332b8dd81e22157daee2096361b33d847ec1b30cfbfcebcf0be09f")),
               Fp(constant("06160c39ecc4c09035c6e4512d8d3461c2864ea569d2edebed904b228898ee9d"))))
    public static let g2GeneratorPrepared = G2Prepared<BN254CX>(g2Generator)
    public static let ateLoopCount = constant("18000000016807024")
    public static let bls12HardPartFactor = computeHardPart()
    public static let bls12HardPartNAF = WindowedNAF.digits(of: bls12HardPartFactor, width: 5)
    public static var uMagnitude: UInt64 { 0x4000000003C012B1 }
    public static var uIsNegative: Bool { true }
    public static let ateLoopNAF = WindowedNAF.digits(of: ateLoopCount.limbs(count: 2), width: 2)
    public static let millerSchedule = MillerStep.schedule(ateLoopNAF: ateLoopNAF, family: family, uIsNegative: uIsNegative)
}
