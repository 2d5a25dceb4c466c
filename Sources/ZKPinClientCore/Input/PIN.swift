/// A PIN as M-Pin uses it: exactly 4 decimal digits, 0000 to 9999.
public struct PIN: Sendable {
    public let value: Int

    /// Parses typed text; a trailing newline (or CR LF) is ignored, nothing else is.
    public init(parsing text: String) throws(ClientError) {
        // Unicode scalars, not Characters: "\r\n" is one Character.
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
        let text = Substring(scalars)
        guard !text.isEmpty else { throw .invalidPIN(reason: "nothing was typed") }
        guard text.count == 4 else {
            throw .invalidPIN(reason: "it has \(text.count) character\(text.count == 1 ? "" : "s"), not 4")
        }
        var value = 0
        for scalar in text.unicodeScalars {
            guard scalar.isASCII, let digit = Int(String(scalar)) else {
                throw .invalidPIN(reason: "it contains something other than the digits 0-9")
            }
            value = value * 10 + digit
        }
        self.value = value
    }
}
