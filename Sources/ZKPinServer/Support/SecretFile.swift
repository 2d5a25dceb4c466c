import Foundation

/// Secrets kept in files of mode 0600 (master shares, HMAC keys): hex text, created on first
/// use. A file readable by group or others is refused, so a copied-around key is noticed.
public enum SecretFile {
    public enum Failure: Error, CustomStringConvertible {
        case tooOpen(String, mode: Int)
        case unreadable(String)
        public var description: String {
            switch self {
            case let .tooOpen(path, mode): return "\(path) has mode \(String(mode, radix: 8)); secrets must be 0600 (chmod 600 \(path))"
            case let .unreadable(path): return "\(path) does not hold a hex secret"
            }
        }
    }

    /// Reads the hex secret at `path`, or creates it with `make()` (mode 0600) when missing.
    public static func loadOrCreate(_ path: String, make: () -> [UInt8]) throws -> [UInt8] {
        if FileManager.default.fileExists(atPath: path) { return try load(path) }
        let bytes = make()
        let text = bytes.map { String(format: "%02x", $0) }.joined() + "\n"
        // Never replaces a file that appeared meanwhile (another instance's key wins); 0600
        // from the first byte, every byte written and fsynced before the name exists.
        guard try PrivateFile.write(Array(text.utf8), to: path, replace: false) else { return try load(path) }
        return bytes
    }

    /// Reads a hex secret, refusing files open to group or others.
    public static func load(_ path: String) throws -> [UInt8] {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Failure.unreadable(path) }
        let mode = Int(st.st_mode) & 0o777
        guard mode & 0o077 == 0 else { throw Failure.tooOpen(path, mode: mode) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let bytes = hexBytes(text.trimmingCharacters(in: .whitespacesAndNewlines)), !bytes.isEmpty
        else { throw Failure.unreadable(path) }
        return bytes
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        var out = [UInt8]()
        var it = text.makeIterator()
        while let a = it.next() {
            guard let b = it.next(), let v = UInt8(String([a, b]), radix: 16) else { return nil }
            out.append(v)
        }
        return out
    }
}
