// The curves' names on the wire; the list is generated (Generated/DescribedCurves.swift).
extension CurveName {
    /// Parses the name or any of its aliases, in any case; nil for an unknown curve.
    public init?(parsing text: String) {
        let text = text.lowercased()
        guard let curve = CurveName.allCases.first(where: { $0.rawValue == text || $0.aliases.contains(text) }) else { return nil }
        self = curve
    }
}
