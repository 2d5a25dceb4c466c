import Foundation
import JWTKit

/// The provider's signing keys in the data folder. The current one (`oidc-es256.key`) signs;
/// a key retired by `zkpin-server admin keys rotate` (renamed `oidc-es256-retired-<unix time>.key`)
/// stays in the JWKS until every ID token it signed has expired. The ring re-reads the folder
/// when the current key file changes, so running servers pick up a rotation without a restart.
final class KeyRing: @unchecked Sendable {  // mutable state only under `lock`
    static let retiredPrefix = "oidc-es256-retired-"
    /// How long a retired key stays published: ID tokens live 600 s; the rest covers JWKS caches
    /// (max-age 300 s) and clock skew.
    static let publishedAfterRetirement = 3600

    let dir: String
    private let lock = NSLock()
    private var cache: (stamp: String, current: SigningKey, retired: [(key: SigningKey, at: Int)])?

    init(dataDirectory: String) throws {
        dir = dataDirectory
        _ = try keys()
    }

    var currentPath: String { (dir as NSString).appendingPathComponent(SigningKey.fileName) }

    /// The current key and the retired ones (newest first), reloaded when the current file changed.
    func keys() throws -> (current: SigningKey, retired: [(key: SigningKey, at: Int)]) {
        let stamp = Self.stamp(currentPath)
        if let cache = lock.withLock({ self.cache }), cache.stamp == stamp, stamp != nil { return (cache.current, cache.retired) }
        let current = try SigningKey.load(path: currentPath, create: true)
        var retired: [(key: SigningKey, at: Int)] = []
        for (path, at) in Self.retiredFiles(dir) {
            if let key = try? SigningKey.load(path: path, create: false) { retired.append((key, at)) }
        }
        let loaded = (stamp: Self.stamp(currentPath) ?? "", current: current, retired: retired)
        lock.withLock { cache = loaded }
        return (current, retired)
    }

    func current() throws -> SigningKey { try keys().current }

    /// The JWKS: the current key and the keys retired less than `publishedAfterRetirement` ago.
    func published(now: Int) throws -> [PublicJWK] {
        let k = try keys()
        return [k.current.jwk] + k.retired.filter { now - $0.at < Self.publishedAfterRetirement }.map(\.key.jwk)
    }

    /// Verifies a token signed by any published key (the header's kid picks it).
    func verify(_ token: String, now: Int) async throws -> IDTokenClaims {
        let k = try keys()
        let collection = JWTKeyCollection()
        for key in [k.current] + k.retired.filter({ now - $0.at < Self.publishedAfterRetirement }).map(\.key) {
            await collection.add(ecdsa: key.key, kid: JWKIdentifier(string: key.kid))
        }
        return try await collection.verify(token, as: IDTokenClaims.self)
    }

    static func stamp(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return "\(st.st_ino)-\(st.st_mtim.tv_sec)-\(st.st_mtim.tv_nsec)-\(st.st_size)"
    }

    static func retiredFiles(_ dir: String) -> [(path: String, at: Int)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.compactMap { name -> (String, Int)? in
            guard name.hasPrefix(retiredPrefix), name.hasSuffix(".key"),
                  let at = Int(name.dropFirst(retiredPrefix.count).dropLast(4)) else { return nil }
            return ((dir as NSString).appendingPathComponent(name), at)
        }.sorted { $0.1 > $1.1 }
    }
}

/// `zkpin-server admin keys rotate|list`.
public enum SigningKeys {
    public struct Entry: Sendable {
        public var kid: String
        public var status: String
    }

    /// Retires the current key (kept published for `KeyRing.publishedAfterRetirement` seconds),
    /// creates a new one, and deletes retired keys past that time. Returns the old and new kid.
    public static func rotate(dataDirectory dir: String, now: Int) throws -> (retired: String?, current: String) {
        let current = (dir as NSString).appendingPathComponent(SigningKey.fileName)
        var old: String? = nil
        if FileManager.default.fileExists(atPath: current) {
            old = try SigningKey.load(path: current, create: false).kid
            let target = (dir as NSString).appendingPathComponent("\(KeyRing.retiredPrefix)\(now).key")
            guard rename(current, target) == 0 else { throw SetupError("cannot retire \(current): errno \(errno)") }
        }
        for (path, at) in KeyRing.retiredFiles(dir) where now - at >= KeyRing.publishedAfterRetirement {
            try? FileManager.default.removeItem(atPath: path)
        }
        return (old, try SigningKey.load(path: current, create: true).kid)
    }

    public static func list(dataDirectory dir: String, now: Int) throws -> [Entry] {
        let current = (dir as NSString).appendingPathComponent(SigningKey.fileName)
        var out: [Entry] = []
        if FileManager.default.fileExists(atPath: current) {
            out.append(Entry(kid: try SigningKey.load(path: current, create: false).kid, status: "current (signs)"))
        }
        for (path, at) in KeyRing.retiredFiles(dir) {
            guard let key = try? SigningKey.load(path: path, create: false) else { continue }
            let left = KeyRing.publishedAfterRetirement - (now - at)
            out.append(Entry(kid: key.kid, status: left > 0 ? "retired, published for \(left) s more" : "retired, no longer published"))
        }
        return out
    }
}
