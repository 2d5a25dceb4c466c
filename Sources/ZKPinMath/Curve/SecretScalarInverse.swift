/// The inverse of a secret scalar mod r: a DVS device key z gives Pa = (z^-1 mod r)·Q
/// (spec section 4.1). Fermat's z^(r-2) (r is prime) in Montgomery form on the scalar's limbs,
/// without GMP (which an iPhone does not have): the exponent is public, so every z runs the
/// same products, and `ScalarMontgomery`'s products neither branch nor index memory on a value.
extension SecretScalar {
    /// z^-1 mod r; nil for z = 0 (the only value without an inverse: r is prime). The table of
    /// powers of z and the result's copy are wiped.
    public var inverse: SecretScalar? {
        var arithmetic = ScalarMontgomery(modulus: C.orderLimbs)
        defer { arithmetic.wipe() }
        var exponent = C.orderLimbs
        exponent[0] -= 2  // r is odd and above 2: no borrow out of the low limb
        var result = arithmetic.power(limbs, exponent: exponent)
        // 0^(r-2) = 0; any other z gives a non-zero inverse. The verdict is public (z = 0 is
        // refused as a key), not the value.
        guard LimbArithmetic.zeroMask(result) == 0 else { return nil }
        defer { for i in result.indices { result[i] = 0 } }
        return SecretScalar(limbs: result)
    }
}
