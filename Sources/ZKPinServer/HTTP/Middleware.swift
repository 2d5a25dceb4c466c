import Hummingbird
import Logging
import ZKPinWire

/// Turns every error into the JSON error body: bad input is a 4xx, never a crash; anything
/// unexpected is a 500 whose details stay in the log.
struct ErrorBodyMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let logger: Logger

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return HTTPHelpers.error(error)
        } catch let error as any HTTPResponseError {
            let code: ErrorCode = error.status.code == 404 ? .notFound : error.status.code < 500 ? .badRequest : .internalError
            let message = error.status.code == 405 ? "method not allowed" : error.status.reasonPhrase
            return HTTPHelpers.error(APIError(status: error.status.code, code: code, message))
        } catch {
            logger.error("unexpected error", metadata: ["path": "\(RedactingLogMiddleware.redact(request.uri.path, nil))", "error": "\(error)"])
            return HTTPHelpers.error(APIError(.internalError, "internal error"))
        }
    }
}

/// One log line per request, with no secret and no personal data: the secrets of query strings
/// (regOTT, s, params, signature) and the e-mail-bearing ones (`i` of activation links, the mpinId)
/// are redacted, and so are path segments holding an mpinId (hex of the e-mail). Page polls,
/// static files and probes are logged at debug, the rest at info. Bodies are never logged.
struct RedactingLogMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let logger: Logger
    let metrics: ServerMetrics?
    static let secretKeys: Set<String> = ["regott", "s", "params", "signature", "webott", "authott", "expires",
                                          "i", "email", "userid", "mpinid", "mpin_id", "hash_mpin_id"]
    /// Requests a page or a monitor repeats every second or so.
    static let routinePaths: Set<String> = ["/rps/access", "/logo.svg", "/favicon.ico", "/metrics", "/status"]

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        metrics?.requests.increment()
        let level: Logger.Level = Self.routinePaths.contains(request.uri.path) ? .debug : .info
        logger.log(level: level, "\(request.method) \(Self.redact(request.uri.path, request.uri.query)) \(response.status.code)")
        return response
    }

    static func redact(_ path: String, _ query: String?) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            isIdentifier(segment) ? "REDACTED" : String(segment)
        }
        let redactedPath = segments.joined(separator: "/")
        guard let query, !query.isEmpty else { return redactedPath }
        let items = query.split(separator: "&").map { item -> String in
            let key = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return secretKeys.contains(key.lowercased()) ? "\(key)=REDACTED" : String(item)
        }
        return redactedPath + "?" + items.joined(separator: "&")
    }

    /// An mpinId (hex of a JSON object with the e-mail) or a hash of one: long hex.
    static func isIdentifier(_ segment: Substring) -> Bool {
        segment.count >= 32 && segment.allSatisfy(\.isHexDigit)
    }
}
