import ZKPinProtocol
import ZKPinWire

extension ConfirmationCode {
    /// `XXXX-XXXX` for a regOTT (openapi.yaml): ZKPinWire defines the input and the
    /// encoding, ZKPinProtocol supplies SHA-256. Nil when regOTT is not hex.
    public static func code(regOTT: String) -> String? {
        guard let input = hashInput(regOTT: regOTT) else { return nil }
        return code(fromDigest: Digest.sha256(input))
    }
}
