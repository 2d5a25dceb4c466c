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
        let text: String
        do {
            let body = try await request.body.collect(upTo: FormBounds.maxBytes)
            text = String(decoding: body.readableBytesView, as: UTF8.self)
        } catch let error as HTTPResponseError { throw error } catch { throw APIError.bad("the form is not readable") }
        if let problem = FormBounds.problem(text.utf8) { throw APIError.bad(problem) }
        do { return try URLEncodedFormDecoder().decode(type, from: text) } catch DecodingError.keyNotFound(let key, _) {
            throw APIError.bad("the form has no field \(key.stringValue)")
        } catch {
            throw APIError.bad("the form is not readable")
        }
    }
}

/// The shape every urlencoded form must have before Hummingbird's form decoder sees it (the
/// pages' forms and every OpenID Connect endpoint's): at most `maxFields` fields, names of
/// letters, digits, `_`, `-` and `.` only (no `a[]` or `a[b]`, which the decoder turns into
/// arrays and dictionaries), each at most `maxNameLength` long. One pass over the bytes, no
/// allocation: a 64 KB body of `a[]=1&` used to cost 20-30 ms of decoding (issue 29, finding 8)
/// and is now refused after its first field.
enum FormBounds {
    static let maxFields = 32
    static let maxNameLength = 64
    /// The largest form body (BodyLimitMiddleware's cap for `/oauth/approval/verify`; the
    /// others are 16 KB), the form's own bound.
    static let maxBytes = 32 * 1024

    /// Why the form is refused, or nil when its shape is acceptable.
    static func problem(_ bytes: some Collection<UInt8>) -> String? {
        var fields = 1, nameLength = 0, inName = true
        for byte in bytes {
            if byte == UInt8(ascii: "&") {
                fields += 1
                if fields > maxFields { return "the form has more than \(maxFields) fields" }
                inName = true
                nameLength = 0
            } else if inName {
                if byte == UInt8(ascii: "=") {
                    inName = false
                    continue
                }
                let allowed =
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
                guard allowed else { return "a form field's name may hold only letters, digits, '_', '-' and '.'" }
                nameLength += 1
                if nameLength > maxNameLength { return "a form field's name is longer than \(maxNameLength) characters" }
            }
        }
        return nil
    }
}
