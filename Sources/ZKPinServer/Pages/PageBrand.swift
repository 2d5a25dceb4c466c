import Foundation

/// The operator's branding of every page and the web app: the accent colour (`--accent-color`:
/// the header, buttons and links) and the logo (`--logo-file`, SVG or PNG), served as
/// `/pages/brand.css` and `/pages/logo`. A stylesheet rather than inline style, so the pages
/// keep their strict policy.
public struct PageBrand: Sendable {
    public static let defaultAccent = "#1d4ed8"
    public static let maxLogoBytes = 256 * 1024

    public let accent: String
    let logo: WebFiles.File
    let css: WebFiles.File

    /// `logoFile` nil: the ZKPin logo. A colour that white text cannot be read on, or a logo
    /// file that is not an SVG or PNG of at most 256 KB, is a `SetupError`.
    public init(accent: String = defaultAccent, logoFile: String? = nil) throws {
        guard Self.isUsableAccent(accent) else {
            throw SetupError(
                "--accent-color \(accent): \(Self.accentRequirement)", kind: .configuration)
        }
        self.accent = accent.lowercased()
        if let logoFile {
            guard let data = FileManager.default.contents(atPath: logoFile) else {
                throw SetupError("--logo-file \(logoFile) cannot be read", kind: .configuration)
            }
            let bytes = Array(data)
            guard bytes.count <= Self.maxLogoBytes, let type = Self.imageType(bytes) else {
                throw SetupError("--logo-file \(logoFile) must be an SVG or PNG image of at most 256 KB", kind: .configuration)
            }
            logo = WebFiles.File(body: bytes, contentType: type)
        } else {
            logo = WebFiles.File(body: Array(Logo.svg.utf8), contentType: "image/svg+xml")
        }
        css = WebFiles.File(body: Array(":root{--accent:\(self.accent)}\n".utf8), contentType: "text/css; charset=utf-8")
    }

    static let accentRequirement = "must be a colour #RRGGBB dark enough for white text on it (contrast at least 4.5:1)"

    /// `#RRGGBB` with a contrast of at least 4.5:1 against white (WCAG 2: the header's and the
    /// buttons' white text stays readable).
    public static func isUsableAccent(_ text: String) -> Bool {
        guard text.utf8.count == 7, text.hasPrefix("#"), let value = Int(text.dropFirst(), radix: 16) else { return false }
        func channel(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
        return 1.05 / (luminance + 0.05) >= 4.5
    }

    /// "image/svg+xml" or "image/png" from the file's first bytes; nil for anything else.
    static func imageType(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        return head.contains("<svg") ? "image/svg+xml" : nil
    }

    /// The policy of a served logo: an SVG may style itself, never run a script or load anything.
    static let logoPolicy = "default-src 'none'; style-src 'unsafe-inline'"
}
