// Curve names on the wire: `bn254cx` and `bls12-381`, parsed case-insensitively, with
// `BN254CX` and `BLS381` accepted as input. (ZKPinProtocol's `CurveID` parses the same names;
// this copy keeps ZKPinWire free of dependencies.)

package enum CurveName: String, Codable, Sendable, CaseIterable {
    case bn254cx = "bn254cx"
    case bls12_381 = "bls12-381"

    /// Parses any accepted spelling; nil for an unknown curve.
    package init?(parsing text: String) {
        switch text.lowercased() {
        case "bn254cx", "bn254_cx", "bn254-cx": self = .bn254cx
        case "bls12-381", "bls381", "bls12_381", "bls12381": self = .bls12_381
        default: return nil
        }
    }
}
