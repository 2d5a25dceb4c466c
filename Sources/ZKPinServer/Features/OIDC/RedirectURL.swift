/// Query strings for redirects: every value percent-encoded (RFC 3986 unreserved kept).
enum RedirectURL {
    static func with(_ base: String, _ items: [(String, String?)]) -> String {
        let query = items.compactMap { key, value in value.map { "\(key)=\(encode($0))" } }.joined(separator: "&")
        guard !query.isEmpty else { return base }
        return base + (base.contains("?") ? "&" : "?") + query
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || "-._~".contains(c) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
