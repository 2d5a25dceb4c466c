import Foundation

/// `zkpin-server admin keys rotate|list`.
public enum SigningKeys {
    public struct Entry: Sendable {
        public var kid: String
        public var algorithm: String
        public var status: String
    }

    /// Retires every current key (each kept published for `KeyRing.publishedAfterRetirement`
    /// seconds), creates new ones, and deletes retired keys past that time. Returns the ES256
    /// key ids, old and new.
    public static func rotate(dataDirectory dir: String, now: Int) throws -> (retired: String?, current: String) {
        var result: (String?, String) = (nil, "")
        for algorithm in SigningKey.Algorithm.allCases {
            let current = (dir as NSString).appendingPathComponent(algorithm.fileName)
            var old: String? = nil
            if FileManager.default.fileExists(atPath: current) {
                old = try SigningKey.load(path: current, algorithm: algorithm, create: false).kid
                let target = (dir as NSString).appendingPathComponent("\(algorithm.retiredPrefix)\(now).key")
                guard rename(current, target) == 0 else { throw SetupError("cannot retire \(current): errno \(errno)") }
            }
            for (path, at) in KeyRing.retiredFiles(dir, algorithm) where now - at >= KeyRing.publishedAfterRetirement {
                try? FileManager.default.removeItem(atPath: path)
            }
            let new = try SigningKey.load(path: current, algorithm: algorithm, create: true).kid
            if algorithm == .es256 { result = (old, new) }
        }
        return result
    }

    public static func list(dataDirectory dir: String, now: Int) throws -> [Entry] {
        var out: [Entry] = []
        for algorithm in SigningKey.Algorithm.allCases {
            let current = (dir as NSString).appendingPathComponent(algorithm.fileName)
            if FileManager.default.fileExists(atPath: current) {
                let key = try SigningKey.load(path: current, algorithm: algorithm, create: false)
                out.append(Entry(kid: key.kid, algorithm: algorithm.rawValue, status: "current (signs)"))
            }
            for (path, at) in KeyRing.retiredFiles(dir, algorithm) {
                guard let key = try? SigningKey.load(path: path, algorithm: algorithm, create: false) else { continue }
                let left = KeyRing.publishedAfterRetirement - (now - at)
                out.append(
                    Entry(
                        kid: key.kid, algorithm: algorithm.rawValue,
                        status: left > 0 ? "retired, published for \(left) s more" : "retired, no longer published"))
            }
        }
        return out
    }
}
