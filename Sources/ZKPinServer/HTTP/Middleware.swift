import Hummingbird
import Logging
import ZKPinWire

/// An error that answers in its own shape (the API's `{"error","message"}`, OAuth's
/// `{"error","error_description"}`, a provider page): `ErrorShapeMiddleware` lets it through.
protocol SelfShapedError: HTTPResponseError {}
extension APIError: SelfShapedError {}

/// Gives Hummingbird's own errors (no such route, wrong method, unreadable JSON, body too
/// large) the API's error body, and turns anything unexpected into a logged 500. Services throw
/// `APIError`, which answers for itself.
struct ErrorShapeMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let logger: Logger
    /// A 404 for a path that exists with other methods becomes a 405 naming them.
    let allowed: AllowedMethods

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any SelfShapedError {
            throw error
        } catch let error as HTTPError {
            if error.status == .notFound, case let methods = allowed.methods(for: request.uri.path), !methods.isEmpty,
                !methods.contains(request.method)
            {
                throw APIError.methodNotAllowed(request.method, allowed: methods)
            }
            throw Self.shaped(error)
        } catch let error as any HTTPResponseError {
            throw APIError(status: error.status, code: Self.code(for: error.status.code), error.status.reasonPhrase)
        } catch {
            logger.error("unexpected error", metadata: ["path": "\(RedactingLogMiddleware.redact(request.uri.path, nil))", "error": "\(error)"])
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

/// One log line per request, with no secret and no personal data: the secrets of query strings
/// (regOTT, s, params, signature) and the e-mail-bearing ones (`i` of activation links, the mpinId)
/// are redacted, and so are path segments holding an mpinId (hex of the e-mail). Page polls,
/// static files and probes are logged at debug, the rest at info. Bodies are never logged; the
/// line is built only when the logger's level lets it through.
struct RedactingLogMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let logger: Logger
    let metrics: ServerMetrics?
    static let secretKeys: Set<String> = [
        "regott", "s", "params", "signature", "webott", "authott", "expires",
        "i", "email", "userid", "mpinid", "mpin_id", "hash_mpin_id", "code", "state", "nonce",
        "id_token_hint", "code_verifier"
    ]
    /// Requests a page or a monitor repeats every second or so.
    static let routinePaths: Set<String> = ["/rps/access", "/logo.svg", "/favicon.ico", "/metrics", "/status", "/ready"]

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
        logger.log(
            level: Self.level(path: request.uri.path, status: status),
            "\(request.method) \(Self.redact(request.uri.path, request.uri.query)) \(status)")
    }

    /// Debug for what a page or a client repeats while it waits: the routine paths, the
    /// registration poll (`GET /rps/signature/<mpinId>` answers 401 every two seconds until
    /// the person opens the activation link), and a gateway's answered check (`/auth/verify`,
    /// `/oauth/introspect`: it comes with every request to the sites it protects); info for
    /// the rest.
    static func level(path: String, status: Int) -> Logger.Level {
        if routinePaths.contains(path) || path.hasPrefix("/js/") || path.hasPrefix("/app") { return .debug }  // the web client's files
        if status == 401 && path.hasPrefix("/rps/signature/") { return .debug }
        if status == 200 && (path == "/auth/verify" || path == "/oauth/introspect") { return .debug }
        return .info
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
