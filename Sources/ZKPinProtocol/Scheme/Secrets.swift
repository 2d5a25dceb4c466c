import ZKPinMath

extension MPin {
    /// A trusted authority's share of the server secret: SS_i = s_i·Q.
    public static func serverSecretShare(master: SecretScalar<C>) -> G2 {
        C.g2Generator.multiplied(bySecret: master)
    }

    /// A trusted authority's share of a client secret: CS_i = s_i·A. A is hashed into G1, so
    /// the constant-time GLV multiplication applies (half the cost of the full-width windows).
    public static func clientSecretShare(master: SecretScalar<C>, hashedIDPoint a: G1) -> G1 {
        a.multipliedInG1(bySecret: master)
    }

    /// A trusted authority's share of a time permit: TP_i = s_i·AT for the day `date` (AT is
    /// hashed into G1: GLV, as above).
    public static func timePermitShare(master: SecretScalar<C>, hashedID: [UInt8], date: Int) -> G1 {
        MPinHash<C>.timePermitPoint(hashedID: hashedID, date: date).multipliedInG1(bySecret: master)
    }

    /// TOKEN = CS - (pin mod 10000)·A: what the client stores instead of its secret.
    public static func extractPIN(clientSecret: G1, pin: Int, hashedIDPoint a: G1) -> G1 {
        clientSecret - a.multiplied(bySecret: pinScalar(pin), bitBound: pinBits)
    }

    /// TOKEN' = TOKEN + old·A - new·A: the same client secret with another PIN extracted.
    public static func changePIN(token: G1, oldPIN: Int, newPIN: Int, hashedIDPoint a: G1) -> G1 {
        let clientSecret = token + a.multiplied(bySecret: pinScalar(oldPIN), bitBound: pinBits)
        return extractPIN(clientSecret: clientSecret, pin: newPIN, hashedIDPoint: a)
    }
}
