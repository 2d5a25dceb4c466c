import HTTPTypes
import Hummingbird
import NIOCore

/// OAuth's JSON answers through the API's response encoder (JSON, `Cache-Control: no-store`),
/// with `Pragma: no-cache` as RFC 6749 section 5.1 asks; discovery and keys may be cached.
struct OAuthJSON<Value: ResponseEncodable>: ResponseGenerator {
    var value: Value
    var status: HTTPResponse.Status = .ok
    var headers: HTTPFields = [:]
    var cacheable = false

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try value.response(from: request, context: context)
        response.status = status
        if cacheable {
            response.headers[.cacheControl] = "public, max-age=300"
        } else {
            response.headers[Self.pragma] = "no-cache"
        }
        response.headers.append(contentsOf: headers)
        return response
    }

    static var pragma: HTTPField.Name { HTTPField.Name("Pragma")! }
}

/// The error body of RFC 6749 section 5.2.
struct OAuthErrorBody: ResponseEncodable {
    var error: String
    var error_description: String
}

extension OAuthError: SelfShapedError {
    var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    /// invalid_client is a 401 with a Basic challenge (RFC 6749 section 5.2 asks for it when the
    /// client used the Authorization header; it does no harm otherwise).
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        if statusCode == 401 { headers[.wwwAuthenticate] = #"Basic realm="zkpin""# }
        if statusCode == 503 || statusCode == 429 { headers[.retryAfter] = String(retryAfter ?? 5) }
        return try OAuthJSON(value: OAuthErrorBody(error: code, error_description: description), status: status, headers: headers)
            .response(from: request, context: context)
    }
}

/// RFC 6750 section 3: no bearer token (`error` nil) or one that is not valid.
struct BearerChallenge: SelfShapedError, Equatable {
    var error: String?
    /// A valid token without the scope the request needs (RFC 6750 section 3.1): 403.
    var missingScope: String? = nil
    var status: HTTPResponse.Status { missingScope == nil ? .unauthorized : .forbidden }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var challenge = error.map { #"Bearer realm="zkpin", error="\#($0)""# } ?? #"Bearer realm="zkpin""#
        if let missingScope { challenge += #", scope="\#(missingScope)""# }
        let description = missingScope.map { "the token lacks the scope \($0)" } ?? "a valid Bearer access token is required"
        return try OAuthJSON(
            value: OAuthErrorBody(error: error ?? "invalid_request", error_description: description),
            status: status, headers: [.wwwAuthenticate: challenge]
        ).response(from: request, context: context)
    }
}

/// A page the provider answers with instead of redirecting (an unverified client or URI, a
/// refused sign-out): the message page, its status, and a cookie to set or remove.
struct ProviderPageError: SelfShapedError {
    var html: String
    var status: HTTPResponse.Status
    var cookie: Cookie?

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = HTMLPage.response(html, status: status)
        if let cookie { response.setCookie(cookie) }
        return response
    }
}

/// The forms of the OAuth endpoints: a GET's query, or a POST's urlencoded body (any other
/// content type is refused), decoded by Hummingbird's form decoder. A parameter given twice or
/// a body that is not a form throws `Malformed`.
enum OAuthForm {
    struct Malformed: Error {
        /// What is wrong with the form's shape (FormBounds), when that is why.
        var reason: String? = nil
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: AppContext, allowQuery: Bool) async throws -> T {
        if allowQuery, request.method == .get { return try parse(type, request.uri.query ?? "") }
        guard let contentType = request.headers[.contentType], MediaType(from: contentType)?.isType(.applicationUrlEncoded) == true
        else { throw Malformed() }
        // The server's body limit applies (BodyLimitMiddleware); this bound is the form's own.
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: FormBounds.maxBytes) } catch { throw Malformed(reason: "the form is larger than 32 KB") }
        return try parse(type, String(decoding: body.readableBytesView, as: UTF8.self))
    }

    /// Checks the form's shape (FormBounds) before the decoder runs.
    static func parse<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        if let problem = FormBounds.problem(text.utf8) { throw Malformed(reason: problem) }
        do { return try URLEncodedFormDecoder().decode(type, from: text) } catch { throw Malformed() }
    }
}

// The provider's JSON answers go through the context's response encoder like the API's.
extension ProviderMetadata: ResponseEncodable {}
extension JWKSet: ResponseEncodable {}
extension TokenResponse: ResponseEncodable {}
extension UserInfo: ResponseEncodable {}
extension IntrospectionResponse: ResponseEncodable {}

/// RFC 7009's success: 200 with an empty JSON object.
struct RevocationAnswer: ResponseEncodable {}
