import Foundation
import JWTKit

/// The provider's signing keys in the data folder, one current key per algorithm
/// (`oidc-es256.key`, `oidc-rs256.key`). A key retired by `zkpin-server admin keys rotate`
/// (renamed `oidc-<alg>-retired-<unix time>.key`) stays in the JWKS until every ID token it
/// signed has expired. The ring re-reads the folder when a current key file changes, so running
/// servers pick up a rotation without a restart.
final class KeyRing: @unchecked Sendable {  // mutable state only under `lock`
    /// How long a retired key stays published: ID tokens live 600 s; the rest covers JWKS caches
    /// (max-age 300 s) and clock skew.
    static let publishedAfterRetirement = 3600

    struct Keys {
        var current: [SigningKey.Algorithm: SigningKey]
        var retired: [(key: SigningKey, at: Int)]
    }

    let dir: String
    private let lock = NSLock()
    private var cache: (stamp: String, keys: Keys)?

    init(dataDirectory: String) throws {
        dir = dataDirectory
        _ = try keys()
    }

    func path(_ name: String) -> String { (dir as NSString).appendingPathComponent(name) }

    /// Every key, reloaded when a current key file changed (or is missing: it is created).
    func keys() throws -> Keys {
        let stamp = stamps()
        if let cache = lock.withLock({ self.cache }), cache.stamp == stamp { return cache.keys }
        var keys = Keys(current: [:], retired: [])
        for algorithm in SigningKey.Algorithm.allCases {
            keys.current[algorithm] = try SigningKey.load(path: path(algorithm.fileName), algorithm: algorithm, create: true)
            for (file, at) in Self.retiredFiles(dir, algorithm) {
                if let key = try? SigningKey.load(path: file, algorithm: algorithm, create: false) { keys.retired.append((key, at)) }
            }
        }
        let loaded = (stamp: stamps(), keys: keys)
        lock.withLock { cache = loaded }
        return keys
    }

    private func stamps() -> String {
        SigningKey.Algorithm.allCases.map { Self.stamp(path($0.fileName)) ?? "missing" }.joined(separator: "|")
    }

    func current(_ algorithm: SigningKey.Algorithm = .es256) throws -> SigningKey {
        guard let key = try keys().current[algorithm] else { throw SetupError("no \(algorithm.rawValue) key") }
        return key
    }

    /// The keys a relying party may see: every current key and those retired less than
    /// `publishedAfterRetirement` ago.
    func publishedKeys(now: Int) throws -> [SigningKey] {
        let k = try keys()
        return SigningKey.Algorithm.allCases.compactMap { k.current[$0] }
            + k.retired.filter { now - $0.at < Self.publishedAfterRetirement }.map(\.key)
    }

    func published(now: Int) throws -> [PublicJWK] { try publishedKeys(now: now).map(\.jwk) }

    /// Verifies a token signed by any published key (the header's kid picks it).
    func verify(_ token: String, now: Int) async throws -> IDTokenClaims {
        let collection = JWTKeyCollection()
        for key in try publishedKeys(now: now) { await key.add(to: collection) }
        return try await collection.verify(token, as: IDTokenClaims.self)
    }

    static func stamp(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return "\(st.st_ino)-\(st.st_mtim.tv_sec)-\(st.st_mtim.tv_nsec)-\(st.st_size)"
    }

    static func retiredFiles(_ dir: String, _ algorithm: SigningKey.Algorithm = .es256) -> [(path: String, at: Int)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        let prefix = algorithm.retiredPrefix
        return names.compactMap { name -> (String, Int)? in
            guard name.hasPrefix(prefix), name.hasSuffix(".key"), let at = Int(name.dropFirst(prefix.count).dropLast(4)) else { return nil }
            return ((dir as NSString).appendingPathComponent(name), at)
        }.sorted { $0.1 > $1.1 }
    }
}
