import Foundation
import HTTPTypes
import Hummingbird
import ZKPinWire

/// The `{"error","message"}` body of the HTTP API (openapi.yaml), with `Retry-After` on a 503. A browser
/// that asked for a page gets the same message as a small HTML page.
extension APIError: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        if Self.wantsHTML(request) {
            response = HTMLPage.response(HTMLPage.message(title: status.reasonPhrase, body.message), status: status)
        } else {
            response = try APIResponseEncoder().encode(body, from: request, context: context)
            response.status = status
        }
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if !allow.isEmpty { response.headers[.allow] = allow.map(\.rawValue).joined(separator: ", ") }
        return response
    }

    /// A page request: GET/POST from a browser (Accept names text/html) outside the JSON API.
    static func wantsHTML(_ request: Request) -> Bool {
        let path = request.uri.path
        guard !path.hasPrefix("/rps/"), !path.hasPrefix("/dta2/") else { return false }
        return request.headers[.accept]?.contains("text/html") == true
    }
}

extension HTTPField.Name {
    static let retryAfter = HTTPField.Name("Retry-After")!
    static let allow = HTTPField.Name("Allow")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
