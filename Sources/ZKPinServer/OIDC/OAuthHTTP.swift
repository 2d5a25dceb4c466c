import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// JSON answers of the OAuth endpoints (RFC 6749 5.1/5.2: no-store, no-cache).
enum OAuthHTTP {
    static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, cache: String = "no-store",
        extra: HTTPFields = [:]
    ) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: cache]
        if cache == "no-store" { headers[HTTPField.Name("Pragma")!] = "no-cache" }
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    struct ErrorBody: Encodable { var error: String; var error_description: String }

    /// invalid_client is a 401 with a Basic challenge (RFC 6749 section 5.2 asks for it when the
    /// client used the Authorization header; it does no harm otherwise).
    static func error(_ e: OAuthError) -> Response {
        var extra: HTTPFields = [:]
        if e.status == 401 { extra[.wwwAuthenticate] = #"Basic realm="zkpin""# }
        if e.status == 503 { extra[.retryAfter] = "5" }
        return json(ErrorBody(error: e.code, error_description: e.description), status: HTTPResponse.Status(code: e.status), extra: extra)
    }

    /// RFC 6750 section 3.
    static func bearerChallenge(_ error: String?) -> Response {
        let value = error.map { #"Bearer realm="zkpin", error="\#($0)""# } ?? #"Bearer realm="zkpin""#
        return json(
            ErrorBody(error: error ?? "invalid_request", error_description: "a valid Bearer access token is required"),
            status: .unauthorized, extra: [.wwwAuthenticate: value])
    }

    static func formBody(_ request: Request) async throws -> String {
        let buffer = try await request.body.collect(upTo: 64 * 1024)
        return String(decoding: buffer.readableBytesView, as: UTF8.self)
    }
}
