import Crypto
import Foundation
import Hummingbird
import Logging
import Synchronization
import Testing

@testable import ZKPinServer

/// A site's back-channel logout endpoint on loopback: records each posted `logout_token` and
/// answers with the next status of its script (200 once the script is used up); `/internal`
/// counts requests that a followed redirect would make.
final class LogoutSite: Sendable {
    let tokens = Mutex<[String]>([])
    let script = Mutex<[Int]>([])
    let internalHits = Mutex(0)
    let port: Int
    private let running: Task<Void, any Error>

    static func start() async throws -> LogoutSite {
        let router = Router()
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let site = LogoutSite.Box()
        router.post("/logout") { request, context in
            let body = try await request.body.collect(upTo: 1 << 16)
            let form = String(buffer: body)
            let token = form.split(separator: "&").first { $0.hasPrefix("logout_token=") }.map { String($0.dropFirst(13)) } ?? ""
            guard let s = site.value else { return Response(status: .internalServerError) }
            s.tokens.withLock { $0.append(token) }
            let status = s.script.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
            if status == 302 { return Response(status: .found, headers: [.location: "http://127.0.0.1:\(s.port)/internal"]) }
            return Response(status: .init(code: status))
        }
        router.post("/internal") { _, _ in
            site.value?.internalHits.withLock { $0 += 1 }
            return Response(status: .ok)
        }
        var quiet = Logger(label: "logout-site")
        quiet.logLevel = .critical  // its shutdown at the end of a test is not news
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in bound.yield(channel.localAddress?.port ?? 0) }, logger: quiet)
        let running = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let made = LogoutSite(port: port, running: running)
        site.value = made
        return made
    }

    private init(port: Int, running: Task<Void, any Error>) {
        self.port = port
        self.running = running
    }

    var uri: String { "http://127.0.0.1:\(port)/logout" }
    func stop() { running.cancel() }

    /// Lets the routes reach the site made after them.
    final class Box: @unchecked Sendable { var value: LogoutSite? }
}

/// A site's check of a logout token (OpenID Connect Back-Channel Logout 1.0, section 2.6),
/// written here without the server's JWT library: the ES256 signature on a key of the
/// provider's JWKS, `iss`, `aud`, `iat`/`exp`, the event, `sub` or `sid`, no `nonce`, and a
/// `jti` not seen before.
final class LogoutTokenChecker {
    enum Refusal: Error, Equatable {
        case malformed, badSignature, wrongIssuer, wrongAudience, expired, noEvent, nonce, noSubject, replayed
    }

    struct Claims {
        var sub: String?
        var sid: String?
        var typ: String?
    }

    let issuer: String
    let audience: String
    let keys: [String: P256.Signing.PublicKey]
    private var seen: Set<String> = []

    /// `jwks`: the body of `/oauth/jwks`.
    init(issuer: String, audience: String, jwks: [UInt8]) throws {
        self.issuer = issuer
        self.audience = audience
        var keys: [String: P256.Signing.PublicKey] = [:]
        let set = try #require(try JSONSerialization.jsonObject(with: Data(jwks)) as? [String: Any])
        for case let key as [String: Any] in set["keys"] as? [Any] ?? [] where key["kty"] as? String == "EC" {
            guard let kid = key["kid"] as? String, let x = (key["x"] as? String).flatMap(Self.base64URL),
                let y = (key["y"] as? String).flatMap(Self.base64URL)
            else { continue }
            keys[kid] = try P256.Signing.PublicKey(rawRepresentation: x + y)
        }
        self.keys = keys
    }

    /// The header and claims of a token signed by a key of the JWKS, for this issuer and audience.
    func verified(_ token: String) throws(Refusal) -> (header: [String: Any], payload: [String: Any]) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Self.base64URL(parts[0]), let payloadBytes = Self.base64URL(parts[1]),
            let signature = Self.base64URL(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
            let payload = try? JSONSerialization.jsonObject(with: Data(payloadBytes)) as? [String: Any]
        else { throw .malformed }
        guard header["alg"] as? String == "ES256", let kid = header["kid"] as? String, let key = keys[kid],
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data((parts[0] + "." + parts[1]).utf8))
        else { throw .badSignature }
        guard payload["iss"] as? String == issuer else { throw .wrongIssuer }
        let audiences = (payload["aud"] as? String).map { [$0] } ?? (payload["aud"] as? [String] ?? [])
        guard audiences.contains(audience) else { throw .wrongAudience }
        return (header, payload)
    }

    func check(_ token: String, now: Int) throws(Refusal) -> Claims {
        let (header, payload) = try verified(token)
        guard let iat = payload["iat"] as? Int, let exp = payload["exp"] as? Int, iat <= now + 60, exp > now else { throw .expired }
        guard let events = payload["events"] as? [String: Any], events[LogoutTokenClaims.event] is [String: Any] else { throw .noEvent }
        guard payload["nonce"] == nil else { throw .nonce }
        let sub = payload["sub"] as? String, sid = payload["sid"] as? String
        guard sub != nil || sid != nil else { throw .noSubject }
        guard let jti = payload["jti"] as? String, !jti.isEmpty else { throw .malformed }
        guard seen.insert(jti).inserted else { throw .replayed }
        return Claims(sub: sub, sid: sid, typ: header["typ"] as? String)
    }

    static func base64URL(_ text: String) -> [UInt8]? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s).map(Array.init)
    }

    /// The claims of a JWT, unverified (what the tests compare).
    static func claims(_ token: String) -> [String: Any] {
        let parts = token.split(separator: ".").map(String.init)
        guard parts.count >= 2, let bytes = base64URL(parts[1]) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]) ?? [:]
    }
}
