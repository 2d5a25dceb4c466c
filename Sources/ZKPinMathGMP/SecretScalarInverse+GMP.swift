import CGMP
import ZKPinMath

/// GMP's side-channel silent inversion (`mpn_sec_invert`: a fixed number of iterations for the
/// bit count it is given, no branch or memory index on the value): the tests' second reference
/// for the GMP-free `SecretScalar.inverse`.
extension SecretScalar {
    /// z^-1 mod r; nil for z = 0. The scratch space and the copy of z that GMP destroys are wiped.
    public var gmpInverse: SecretScalar? {
        let n = C.orderLimbs.count
        var result = [UInt64](repeating: 0, count: n)
        var input = limbs
        var modulus = C.orderLimbs
        var scratch = [UInt64](repeating: 0, count: Int(__gmpn_sec_invert_itch(n)))
        defer {
            for i in input.indices { input[i] = 0 }
            for i in scratch.indices { scratch[i] = 0 }
        }
        // Both operands' bits (2·bitWidth of r) bound the iterations GMP needs for any z < r.
        let bits = mp_bitcnt_t(2 * C.order.bitWidth)
        let invertible = result.withUnsafeMutableBytes { out in
            input.withUnsafeMutableBytes { value in
                modulus.withUnsafeMutableBytes { m in
                    scratch.withUnsafeMutableBytes { tp in
                        __gmpn_sec_invert(
                            limbPointer(out), limbPointer(value), limbPointer(m), n, bits, limbPointer(tp))
                    }
                }
            }
        }
        guard invertible != 0 else { return nil }
        return SecretScalar(canonicalLimbs: result)
    }
}

/// GMP's limbs (`unsigned long`) over the bytes of a `[UInt64]`: the same 64-bit words.
private func limbPointer(_ bytes: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<mp_limb_t> {
    bytes.baseAddress!.assumingMemoryBound(to: mp_limb_t.self)
}
