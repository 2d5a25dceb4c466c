import COpenSSL

/// OpenSSL's P-256 ECDSA verification in the same process: a fixed reference that makes
/// timings comparable across machines (`zkpin bench --baseline`).
public enum ECDSABaseline {
    public static func run(stopwatch: Stopwatch = Stopwatch()) -> BenchmarkResult? {
        guard let keyContext = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(keyContext) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(keyContext) == 1,
              EVP_PKEY_CTX_set_ec_paramgen_curve_nid(keyContext, NID_X9_62_prime256v1) == 1,
              EVP_PKEY_keygen(keyContext, &key) == 1, let key else { return nil }
        defer { EVP_PKEY_free(key) }

        let digest = Digest.sha256(Array("zkpin benchmark message".utf8))
        var signature = [UInt8](repeating: 0, count: 80)
        var signatureLength = signature.count
        guard let signContext = EVP_PKEY_CTX_new(key, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(signContext) }
        guard EVP_PKEY_sign_init(signContext) == 1,
              EVP_PKEY_sign(signContext, &signature, &signatureLength, digest, digest.count) == 1 else { return nil }

        guard let verifyContext = EVP_PKEY_CTX_new(key, nil), EVP_PKEY_verify_init(verifyContext) == 1 else { return nil }
        defer { EVP_PKEY_CTX_free(verifyContext) }
        var allValid = true
        let median = stopwatch.median {
            allValid = allValid && EVP_PKEY_verify(verifyContext, signature, signatureLength, digest, digest.count) == 1
        }
        return allValid ? BenchmarkResult(curve: "p256", op: "ecdsa_verify", medianNanoseconds: median) : nil
    }
}
