import COpenSSL
import ZKPinProtocol

/// OpenSSL's P-256 ECDSA verification in the same process: a fixed reference that makes
/// timings comparable across machines (`zkpin bench --baseline`).
public final class ECDSABaseline {
    private let key: OpaquePointer
    private let verifyContext: OpaquePointer
    private let digest: [UInt8]
    private let signature: [UInt8]
    /// False once any timed verification has failed (the reference would be meaningless).
    public private(set) var allValid = true

    /// A fresh key and one signature to verify; nil when OpenSSL refuses any step.
    public init?() {
        guard let keyContext = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(keyContext) }
        var generated: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(keyContext) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(keyContext, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(keyContext, &generated) == 1, let generated
        else { return nil }

        let digest = Digest.sha256(Array("zkpin benchmark message".utf8))
        var signature = [UInt8](repeating: 0, count: 80)
        var signatureLength = signature.count
        guard let signContext = EVP_PKEY_CTX_new(generated, nil) else { EVP_PKEY_free(generated); return nil }
        defer { EVP_PKEY_CTX_free(signContext) }
        guard EVP_PKEY_sign_init(signContext) == 1,
            EVP_PKEY_sign(signContext, &signature, &signatureLength, digest, digest.count) == 1,
            let verifyContext = EVP_PKEY_CTX_new(generated, nil)
        else { EVP_PKEY_free(generated); return nil }
        guard EVP_PKEY_verify_init(verifyContext) == 1 else {
            EVP_PKEY_CTX_free(verifyContext); EVP_PKEY_free(generated); return nil
        }
        key = generated
        self.verifyContext = verifyContext
        self.digest = digest
        self.signature = Array(signature[..<signatureLength])
        guard verify() else { return nil }
    }

    deinit {
        EVP_PKEY_CTX_free(verifyContext)
        EVP_PKEY_free(key)
    }

    /// One verification (the timed reference operation).
    @discardableResult
    public func verify() -> Bool {
        let valid = EVP_PKEY_verify(verifyContext, signature, signature.count, digest, digest.count) == 1
        allValid = allValid && valid
        return valid
    }

    /// The reference's own median, reported as `{"curve": "p256", "op": "ecdsa_verify"}`.
    public func run(stopwatch: Stopwatch = Stopwatch()) -> BenchmarkResult? {
        let median = stopwatch.median { verify() }
        return allValid ? BenchmarkResult(curve: "p256", op: "ecdsa_verify", medianNanoseconds: median) : nil
    }
}
