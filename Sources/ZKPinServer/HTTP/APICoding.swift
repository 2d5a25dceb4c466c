import Foundation
import HTTPTypes
import Hummingbird

/// JSON request bodies, and only JSON: another content type is 415, so a web page cannot make
/// its visitors' browsers call the API with a "simple" (text/plain or form) request.
public struct APIRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        guard let contentType = request.headers[.contentType], MediaType(from: contentType)?.isType(.applicationJson) == true else {
            throw APIError(status: .unsupportedMediaType, code: .badRequest, "send the body as JSON with Content-Type: application/json")
        }
        return try await Self.json.decode(type, from: request, context: context)
    }

    /// One decoder for every request (its options never change): making one per request was a
    /// measurable part of a small request's CPU.
    static let json = JSONDecoder()
}

/// JSON answers that no cache keeps (they carry one-time tokens and verdicts).
public struct APIResponseEncoder: ResponseEncoder {
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        var response = try Self.json.encode(value, from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// One encoder for every answer (its options never change).
    static let json = JSONEncoder()
}

/// The pages' bodies: an urlencoded form, or the same fields as JSON (rps-api.md allows both
/// for `/mpinActivate` and `/session`); any other content type is 415.
enum FormBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: AppContext) async throws -> T {
        if request.headers[.contentType].flatMap(MediaType.init(from:))?.isType(.applicationJson) == true {
            return try await request.decode(as: type, context: context)
        }
        guard let contentType = request.headers[.contentType],
            MediaType(from: contentType)?.isType(.applicationUrlEncoded) == true
        else {
            throw APIError(status: .unsupportedMediaType, code: .badRequest, "send the form as application/x-www-form-urlencoded or JSON")
        }
        do { return try await URLEncodedFormDecoder().decode(type, from: request, context: context) } catch let error as HTTPResponseError {
            throw error
        } catch DecodingError.keyNotFound(let key, _) { throw APIError.bad("the form has no field \(key.stringValue)") } catch {
            throw APIError.bad("the form is not readable")
        }
    }
}
