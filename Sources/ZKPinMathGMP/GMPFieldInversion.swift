import CGMP
import ZKPinMath

/// GMP's extended Euclid (mpn_gcdext, about 15k instructions on BLS12-381 against 140k for
/// Fermat) for `Fp.inverse`'s blinded inversion: the server and the command install it at
/// start-up; an app on ZKPinKit, without GMP, inverts by Fermat.
public enum GMPFieldInversion {
    public static func install() { FieldInversion.install(gmpExtendedEuclid) }
}

/// `FieldInversion.ExtendedEuclid` by mpn_gcdext (GMP's limbs are 64-bit `unsigned long`).
private func gmpExtendedEuclid(
    _ gcd: UnsafeMutablePointer<UInt64>, _ cofactor: UnsafeMutablePointer<UInt64>, _ cofactorSize: UnsafeMutablePointer<Int>,
    _ u: UnsafeMutablePointer<UInt64>, _ v: UnsafeMutablePointer<UInt64>, _ count: Int
) -> Int {
    func limbs(_ p: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<mp_limb_t> {
        UnsafeMutableRawPointer(p).assumingMemoryBound(to: mp_limb_t.self)
    }
    return __gmpn_gcdext(limbs(gcd), limbs(cofactor), cofactorSize, limbs(u), count, limbs(v), count)
}
