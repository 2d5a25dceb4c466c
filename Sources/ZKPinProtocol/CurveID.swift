import ZKPinMath

/// The curves a deployment can choose (spec: `bn254cx`, `bls12-381`; `BN254CX`, `BLS381` also
/// accepted as input, in any case).
public enum CurveID: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case bn254cx = "bn254cx"
    case bls12_381 = "bls12-381"

    public init?(name: String) {
        switch name.lowercased() {
        case "bn254cx", "bn254_cx", "bn254-cx": self = .bn254cx
        case "bls12-381", "bls381", "bls12_381", "bls12381": self = .bls12_381
        default: return nil
        }
    }

    public var description: String { rawValue }

    /// The byte-level M-Pin operations on this curve.
    public var suite: any MPinSuite {
        switch self {
        case .bn254cx: return MPinCurveSuite<BN254CX>()
        case .bls12_381: return MPinCurveSuite<BLS12_381>()
        }
    }
}
