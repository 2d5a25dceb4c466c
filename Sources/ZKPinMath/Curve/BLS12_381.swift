/// The prime field of BLS12-381.
public enum BLS12_381Field: TowerParameters {
    public typealias Limbs = Limbs6
    @inlinable public static var modulus: Limbs6 {
        Limbs6(storage: (0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                         0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a))
    }
    @inlinable public static var negativeInverse: UInt64 { 0x89f3fffcfffcfffd }
    @inlinable public static var rSquared: Limbs6 {
        Limbs6(storage: (0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                         0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa))
    }
    @inlinable public static var montgomeryOne: Limbs6 {
        Limbs6(storage: (0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                         0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493))
    }
    public static var byteCount: Int { 48 }
    public static let modulusBig = BLS12_381.constant(
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab")
    public static let inverseExponent = (modulusBig - BigInt(2)).limbs(count: 6)
    public static let squareRootExponent = (modulusBig + BigInt(1)).shiftedRight(2).limbs(count: 6)
    public static let frobeniusDelta = computeFrobeniusDelta()
    public static let frobeniusDeltaSquared = frobeniusDelta.squared
    public static let frobeniusDeltaCubed = frobeniusDelta.squared * frobeniusDelta
}

/// BLS12-381 (Milagro's "BLS381"): y^2 = x^3 + 4, M-type twist y^2 = x^3 + 4(1 + i).
public enum BLS12_381: PairingCurve {
    public typealias Field = BLS12_381Field
    public static var name: String { "bls12-381" }
    public static var family: PairingFamily { .bls12 }
    public static var twist: TwistType { .multiplicative }
    public static let u = -constant("d201000000010000")
    public static let order = constant("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001")
    public static var scalarByteCount: Int { 48 }
    public static let g1Cofactor = constant("396c8c005555e1568c00aaab0000aaab")
    public static var g1CofactorIsOne: Bool { false }
    public static let g1EndomorphismBeta: Fp<Field>? = g1Endomorphism.beta
    /// λ = -u^2 (r = u^4 - u^2 + 1).
    public static let g1Endomorphism = G1Endomorphism<BLS12_381>(lambda: -(u * u))
    public static let g1B = Fp<Field>(4)
    public static let g1B3 = Fp<Field>(12)
    public static let g2B = Fp2<Field>(Fp(4), Fp(4))
    public static let g2B3 = Fp2<Field>(Fp(12), Fp(12))
    public static let g1Generator = G1Point<BLS12_381>(
        x: Fp(constant("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb")),
        y: Fp(constant("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1")))
    public static let g2Generator = G2Point<BLS12_381>(
        x: Fp2(Fp(constant("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8")),
               Fp(constant("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"))),
        y: Fp2(Fp(constant("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801")),
               Fp(constant("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"))))
    public static let g2GeneratorPrepared = G2Prepared<BLS12_381>(g2Generator)
    public static let ateLoopCount = constant("d201000000010000")
    public static let bls12HardPartFactor = computeHardPart()
    public static let bls12HardPartNAF = WindowedNAF.digits(of: bls12HardPartFactor, width: 5)
    public static var uMagnitude: UInt64 { 0xd201000000010000 }
    public static var uIsNegative: Bool { true }
    public static let ateLoopNAF = WindowedNAF.digits(of: ateLoopCount.limbs(count: 2), width: 2)
    public static let millerSchedule = MillerStep.schedule(ateLoopNAF: ateLoopNAF, family: family, uIsNegative: uIsNegative)
}
