import CQREncode

/// A QR code as inline SVG through libqrencode (error correction M, 8-bit mode).
public enum QRCodeSVG {
    /// The SVG for `text`, nil if libqrencode cannot encode it (too long).
    public static func svg(_ text: String, moduleSize: Int = 6, quietZone: Int = 4) -> String? {
        guard let modules = matrix(text) else { return nil }
        let width = modules.count
        let size = (width + 2 * quietZone) * moduleSize
        var path = ""
        for y in 0..<width {
            for x in 0..<width where modules[y][x] {
                path += "M\((x + quietZone) * moduleSize) \((y + quietZone) * moduleSize)h\(moduleSize)v\(moduleSize)h-\(moduleSize)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)" viewBox="0 0 \(size) \(size)" role="img" aria-label="QR code">\
            <rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// The dark modules, row by row.
    public static func matrix(_ text: String) -> [[Bool]]? {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        return (0..<width).map { y in (0..<width).map { x in data[y * width + x] & 1 == 1 } }
    }
}
