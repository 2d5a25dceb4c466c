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
            logger.error("unexpected error", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return HTTPHelpers.error(APIError(.internalError, "internal error"))
        }
    }
}

/// One log line per request, with the secrets of query strings (regOTT, s, params, signature)
/// redacted. Bodies are never logged.
struct RedactingLogMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let logger: Logger
    let metrics: ServerMetrics?
    static let secretKeys: Set<String> = ["regott", "s", "params", "signature", "webott", "authott", "expires", "id_token_hint", "code", "code_verifier"]

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        metrics?.requests.increment()
        logger.info("\(request.method) \(Self.redact(request.uri.path, request.uri.query)) \(response.status.code)")
        return response
    }

    static func redact(_ path: String, _ query: String?) -> String {
        guard let query, !query.isEmpty else { return path }
        let items = query.split(separator: "&").map { item -> String in
            let key = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return secretKeys.contains(key.lowercased()) ? "\(key)=REDACTED" : String(item)
        }
        return path + "?" + items.joined(separator: "&")
    }
}
