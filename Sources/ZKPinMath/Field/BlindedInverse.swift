/// Field inversion by a variable-time extended Euclid (GMP's mpn_gcdext, installed by
/// ZKPinMathGMP's `GMPFieldInversion.install()` in the server and the command) on a blinded
/// value: x·b for a fresh uniformly random b != 0, then times b. Euclid's running time depends
/// on its input, but x·b is uniformly distributed whatever x is, so the time says nothing about
/// x (the usual blinding countermeasure). About 15k instructions on BLS12-381 against 140k for
/// Fermat's a^(p-2); no heap allocation. Without an installed Euclid (an app on ZKPinKit, which
/// has no GMP), `Fp.inverse` is Fermat's `constantTimeInverse`.
public enum FieldInversion {
    /// mpn_gcdext's contract on 64-bit limbs: given U >= V (n limbs each, V's top limb non-zero),
    /// destroys both, writes G = gcd(U, V) and returns its limb count, and writes S (n + 1 limbs)
    /// with G = S·U + T·V, |S| < V, its limb count in `cofactorSize`, negated when S < 0.
    public typealias ExtendedEuclid =
        @convention(c) (
            _ gcd: UnsafeMutablePointer<UInt64>, _ cofactor: UnsafeMutablePointer<UInt64>,
            _ cofactorSize: UnsafeMutablePointer<Int>, _ u: UnsafeMutablePointer<UInt64>,
            _ v: UnsafeMutablePointer<UInt64>, _ count: Int
        ) -> Int

    /// Set once at start-up, before any inversion (a single word: a C function pointer).
    nonisolated(unsafe) public private(set) static var euclid: ExtendedEuclid?

    /// Makes `Fp.inverse` the blinded Euclid through `euclid`. Call at start-up.
    public static func install(_ euclid: ExtendedEuclid) { self.euclid = euclid }
}

extension Fp {
    @_specialize(where P == BN254CXField)
    @_specialize(where P == BLS12_381Field)
    package func blindedInverse() -> Fp {
        guard let euclid = FieldInversion.euclid else { return fermatInverse() }
        let blind = Fp.randomNonZeroMontgomery()
        let masked = self * blind
        guard let inverse = Fp.euclidInverse(ofRepresentation: masked.montgomery, euclid: euclid) else {
            return isZero ? .zero : fermatInverse()  // a field whose 2p overflows R (none here)
        }
        // masked holds m = x·b·R; inverse holds m^-1 = x^-1·b^-1·R^-1 (as a plain residue), so
        // (m^-1 ⊗ b·R) ⊗ R^3 = x^-1·R, the Montgomery form of x^-1 (⊗: Montgomery product).
        let rCubed = Fp(montgomery: P.rSquared) * Fp(montgomery: P.rSquared)
        return Fp(montgomery: inverse) * blind * rCubed
    }

    /// The residue m^-1 mod p of the integer m < p held in `limbs`, nil for m = 0.
    @inlinable
    static func euclidInverse(ofRepresentation m: P.Limbs, euclid: FieldInversion.ExtendedEuclid) -> P.Limbs? {
        let n = P.Limbs.count
        // The Euclid wants U >= V with V's top limb non-zero: U = m + p (no carry out: 2p < R on
        // both curves), V = p.
        var u = m
        var carry: UInt64 = 0
        for i in 0..<n {
            let (s1, o1) = u[i].addingReportingOverflow(P.modulus[i])
            let (s2, o2) = s1.addingReportingOverflow(carry)
            u[i] = s2
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        guard carry == 0 else { return nil }
        var v = P.modulus
        var gcd = P.Limbs(), cofactor = (P.Limbs(), UInt64(0))
        var cofactorSize = 0
        let gcdSize = withUnsafeMutableBytes(of: &u) { uBytes in
            withUnsafeMutableBytes(of: &v) { vBytes in
                withUnsafeMutableBytes(of: &gcd) { gBytes in
                    withUnsafeMutableBytes(of: &cofactor) { sBytes in
                        euclid(
                            gBytes.baseAddress!.assumingMemoryBound(to: UInt64.self),
                            sBytes.baseAddress!.assumingMemoryBound(to: UInt64.self),
                            &cofactorSize,
                            uBytes.baseAddress!.assumingMemoryBound(to: UInt64.self),
                            vBytes.baseAddress!.assumingMemoryBound(to: UInt64.self), n)
                    }
                }
            }
        }
        guard gcdSize == 1, gcd[0] == 1, cofactorSize != 0, abs(cofactorSize) <= n else { return nil }
        // S·(m + p) ≡ S·m ≡ 1 (mod p); S < 0 is written as its magnitude with a negative size.
        var magnitude = cofactor.0
        for i in abs(cofactorSize)..<n { magnitude[i] = 0 }
        return cofactorSize > 0 ? magnitude : LimbArithmetic.subtract(P.modulus, magnitude).0
    }

    /// A uniformly random non-zero element's Montgomery representation (itself uniform).
    @inlinable
    static func randomNonZeroMontgomery() -> Fp {
        let topBits = 64 - P.modulus[P.Limbs.count - 1].leadingZeroBitCount
        let topMask: UInt64 = topBits == 64 ? .max : (UInt64(1) << UInt64(topBits)) - 1
        while true {
            var limbs = P.Limbs()
            withUnsafeMutableBytes(of: &limbs) { fillRandom($0) }
            limbs[P.Limbs.count - 1] &= topMask
            if LimbArithmetic.lessThan(limbs, P.modulus) && !limbs.constantTimeEquals(P.Limbs()) {
                return Fp(montgomery: limbs)
            }
        }
    }
}
