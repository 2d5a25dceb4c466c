import Crypto

extension VAPIDKey {
    /// A key that lives only in memory (a server without a data folder: tests).
    static func ephemeral() throws -> VAPIDKey { try VAPIDKey(rawScalar: Array(P256.Signing.PrivateKey().rawRepresentation)) }
}
