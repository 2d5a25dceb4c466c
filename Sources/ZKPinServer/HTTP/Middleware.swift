import Hummingbird
import Logging
import ZKPinWire

/// Gives Hummingbird's own errors (no such route, wrong method, unreadable JSON, body too
/// large) the API's error body, and turns anything unexpected into a logged 500. Services throw
/// `APIError`, which answers for itself.
struct ErrorShapeMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let logger: Logger

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            throw Self.shaped(error)
        } catch let error as any HTTPResponseError {
            throw APIError(status: error.status, code: Self.code(for: error.status.code), error.status.reasonPhrase)
        } catch {
            logger.error("unexpected error", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            throw APIError(.internalError, "internal error")
        }
    }

    static func shaped(_ error: HTTPError) -> APIError {
        let message: String
        switch error.status.code {
        case 405: message = "method not allowed"
        case 413: message = "the request body is too large"
        default: message = error.body ?? error.status.reasonPhrase
        }
        return APIError(status: error.status, code: code(for: error.status.code), message)
    }

    static func code(for status: Int) -> ErrorCode {
        status == 404 ? .notFound : status < 500 ? .badRequest : .internalError
    }
}

/// One log line per request, with the secrets of query strings (regOTT, s, params, signature)
/// redacted; bodies are never logged. The line is built only when the logger's level lets it
/// through, so logging costs nothing when it is off.
struct RedactingLogMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let logger: Logger
    let metrics: ServerMetrics?
    static let secretKeys: Set<String> = ["regott", "s", "params", "signature", "webott", "authott", "expires", "code", "state", "nonce"]

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            record(request, status: response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            record(request, status: error.status.code)
            throw error
        }
    }

    func record(_ request: Request, status: Int) {
        metrics?.requests.increment()
        // The page's poll comes every second per open page: debug, not info.
        let level: Logger.Level = request.uri.path == "/rps/access" ? .debug : .info
        logger.log(level: level, "\(request.method) \(Self.redact(request.uri.path, request.uri.query)) \(status)")
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
