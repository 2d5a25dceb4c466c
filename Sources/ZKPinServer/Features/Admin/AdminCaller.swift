import Foundation
import Hummingbird

/// What every `/admin/v1` route does first: the caller's bearer token, its scope, the audit row
/// with the calling client; and the answers' shapes (the CLI's `--json` documents).
struct AdminCaller: Sendable {
    let provider: OIDCProvider
    let address: ClientAddress

    /// The caller's client id, once its token holds `scope` (the call is audited).
    func authorize(_ request: Request, _ context: AppContext, _ scope: String) async throws -> String {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { throw BearerChallenge() }
        let from = address.of(request, context)
        let key = "admin-bearer:" + from
        try await provider.checkFailures(key, provider.limits.invalidBearersPerAddress, address: from)
        let hash = Tokens.hash(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        let now = provider.now
        guard let token = try await provider.stored({ try await $0.adminToken(hash: hash, now: now) }) else {
            try await provider.countFailure(key, provider.limits.invalidBearersPerAddress)
            throw BearerChallenge(error: "invalid_token")
        }
        guard token.scopes.contains(scope) else { throw BearerChallenge(error: "insufficient_scope", missingScope: scope) }
        await provider.audit.record("admin_api", address: from, "client \(token.clientId): \(request.method.rawValue) \(request.uri.path)")
        return token.clientId
    }

    /// A whole number query parameter within `range`, or `value` when absent.
    func queryNumber(_ request: Request, _ name: String, default value: Int?, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let n = Int(text), range.contains(n) else {
            throw APIError.bad("\(name) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// A path parameter, percent-decoded.
    func pathParameter(_ context: AppContext, _ name: String) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    func document(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(data: try AdminRows.json(value))))
    }

    var now: Int { provider.now }
}
