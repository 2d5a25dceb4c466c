import ZKPinMath

/// Generic code to run on one curve: `CurveID.run(_:)` calls `run(on:)` with the curve's
/// concrete type (the list of curves is generated, Generated/DescribedCurves.swift).
public protocol CurveOperation {
    associatedtype Result
    func run<C: PairingCurve>(on curve: C.Type) -> Result
}

extension CurveID: CustomStringConvertible {
    /// Parses the name or any of its aliases, in any case; nil for an unknown curve.
    public init?(name: String) {
        let text = name.lowercased()
        guard let curve = CurveID.allCases.first(where: { $0.rawValue == text || $0.aliases.contains(text) }) else { return nil }
        self = curve
    }

    public var description: String { rawValue }

    /// The names for messages and help texts: "bn254cx or bls12-381" (with `extra`, e.g. "all", last).
    public static func names(and extra: String? = nil) -> String {
        let names = allCases.map(\.rawValue) + (extra.map { [$0] } ?? [])
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The byte-level M-Pin operations on this curve.
    public var suite: any MPinSuite { run(SuiteOperation()) }

    struct SuiteOperation: CurveOperation {
        func run<C: PairingCurve>(on curve: C.Type) -> any MPinSuite { MPinCurveSuite<C>() }
    }
}
