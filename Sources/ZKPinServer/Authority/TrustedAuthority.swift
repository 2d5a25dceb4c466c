import ZKPinProtocol

/// One trusted authority (D-TA 1 in the relying party, D-TA 2 alone or in process): a master
/// share and the shares it issues. The share lives only in memory and in its 0600 file.
public struct TrustedAuthority: Sendable {
    public let suite: any MPinSuite
    let master: [UInt8]

    public init(suite: any MPinSuite, master: [UInt8]) { self.suite = suite; self.master = master }

    /// Loads the master share at `path`, creating a fresh one (mode 0600) on first start.
    public static func load(path: String, suite: any MPinSuite) throws -> TrustedAuthority {
        TrustedAuthority(suite: suite, master: try SecretFile.loadOrCreate(path) { suite.randomScalar() })
    }

    public func clientSecretShare(id: [UInt8]) throws -> [UInt8] { try suite.clientSecretShare(master: master, id: id) }
    public func timePermitShare(id: [UInt8], date: Int) throws -> [UInt8] { try suite.timePermitShare(master: master, id: id, date: date) }
    /// D-TA 2's shares: from HASH_ID(ID) alone, so it never learns the identity (the e-mail).
    public func clientSecretShare(hashedID: [UInt8]) throws -> [UInt8] { try suite.clientSecretShare(master: master, hashedID: hashedID) }
    public func timePermitShare(hashedID: [UInt8], date: Int) throws -> [UInt8] {
        try suite.timePermitShare(master: master, hashedID: hashedID, date: date)
    }
    public func serverSecretShare() throws -> [UInt8] { try suite.serverSecretShare(master: master) }
}
