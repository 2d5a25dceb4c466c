import Crypto
import Foundation

/// Web Push message encryption (RFC 8291) in the aes128gcm content coding (RFC 8188): a fresh
/// P-256 key and salt per message, one record. The body is what the push service gets:
/// salt(16) || rs(4, 4096) || idlen(1, 65) || the ephemeral public key(65) || the record.
public enum WebPushEncryption {
    /// The record size the header states (RFC 8188 `rs`).
    public static let recordSize = 4096
    /// RFC 8291 section 4: push services need accept only 4096 bytes of body; less the header
    /// (86), the padding delimiter (1) and the AEAD tag (16), that leaves 3993 bytes of message,
    /// which also fits one record.
    public static let maxPlaintext = 3993

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooLarge(Int)
        case badSalt(Int)
        /// The crypto library refused (not expected with validated keys; reported, not a crash).
        case library(String)

        public var description: String {
            switch self {
            case .tooLarge(let n): return "a push message of \(n) bytes is over the \(WebPushEncryption.maxPlaintext) bytes one Web Push body holds"
            case .badSalt(let n): return "the salt is \(n) bytes, not 16"
            case .library(let what): return "Web Push encryption failed: \(what)"
            }
        }
    }

    /// `plaintext` encrypted for `receiver`, with a fresh ephemeral key and salt.
    public static func encrypt(_ plaintext: [UInt8], for receiver: WebPushReceiverKeys) throws(Failure) -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        return try encrypt(plaintext, for: receiver, salt: salt, ephemeral: P256.KeyAgreement.PrivateKey())
    }

    /// The same with the salt and the ephemeral key given (the known-answer test; never reuse either).
    static func encrypt(
        _ plaintext: [UInt8], for receiver: WebPushReceiverKeys, salt: [UInt8], ephemeral: P256.KeyAgreement.PrivateKey
    ) throws(Failure) -> [UInt8] {
        guard plaintext.count <= maxPlaintext else { throw .tooLarge(plaintext.count) }
        guard salt.count == 16 else { throw .badSalt(salt.count) }
        let asPublic = Array(ephemeral.publicKey.x963Representation)
        let ecdhSecret: SharedSecret
        let sealed: AES.GCM.SealedBox
        do { ecdhSecret = try ephemeral.sharedSecretFromKeyAgreement(with: receiver.publicKey) } catch {
            throw .library("key agreement: \(error)")
        }

        // RFC 8291 section 3.3 and 3.4: IKM = HKDF(auth, ecdh_secret, "WebPush: info\0" || ua_public || as_public, 32).
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiver.p256dh + asPublic
        let ikm = ecdhSecret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: receiver.auth, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 section 2.2 and 2.3: the content key and the nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let cek = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)

        // One record, so its sequence number is 0 and the nonce is used as derived; 0x02 marks
        // the last record, with no padding after it.
        let record = plaintext + [0x02]
        do { sealed = try AES.GCM.seal(record, using: cek, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) })) } catch {
            throw .library("AES-GCM: \(error)")
        }

        var body = salt
        body.reserveCapacity(86 + record.count + 16)
        withUnsafeBytes(of: UInt32(recordSize).bigEndian) { body += $0 }
        body.append(UInt8(asPublic.count))
        body += asPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }
}
