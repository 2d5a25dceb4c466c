import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ZKPinWire

/// JSON in and out, forms, cookies and the client address.
enum HTTPHelpers {
    static let maxBody = 64 * 1024

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ error: APIError) -> Response {
        json(error.body, status: HTTPResponse.Status(code: error.status))
    }

    static func body(_ request: Request) async throws(APIError) -> [UInt8] {
        do {
            let buffer = try await request.body.collect(upTo: maxBody)
            return Array(buffer.readableBytesView)
        } catch { throw APIError(status: 413, code: .badRequest, "the request body is too large") }
    }

    /// Decodes a JSON body; every decoding failure is a 400 naming what is wrong.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(APIError) -> T {
        let bytes = try await body(request)
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) }
        catch let DecodingError.keyNotFound(key, _) { throw APIError.bad("missing field \(key.stringValue)") }
        catch let DecodingError.typeMismatch(_, ctx) { throw APIError.bad("wrong type at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))") }
        catch let DecodingError.valueNotFound(_, ctx) { throw APIError.bad("null at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))") }
        catch { throw APIError.bad("the body is not the expected JSON") }
    }

    /// Fields of a JSON object or an urlencoded form body (pages post forms).
    static func fields(_ request: Request) async throws(APIError) -> [String: String] {
        let bytes = try await body(request)
        if request.headers[.contentType]?.lowercased().contains("application/json") == true {
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            else { throw APIError.bad("the body is not a JSON object") }
            return object.compactMapValues { $0 as? String }
        }
        return form(String(decoding: bytes, as: UTF8.self))
    }

    static func form(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            out[decode(kv[0])] = kv.count > 1 ? decode(kv[1]) : ""
        }
        return out
    }

    static func query(_ request: Request) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in request.uri.queryParameters { out[String(k)] = String(v) }
        return out
    }

    static func cookie(_ request: Request, named name: String) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let kv = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if kv.count == 2, kv[0] == name { return String(kv[1]) }
            }
        }
        return nil
    }

    /// The client's address; X-Forwarded-For only when the peer is the trusted proxy.
    static func address(_ request: Request, _ context: AppContext, trustedProxy: String?) -> String {
        let peer = context.remoteAddress?.ipAddress ?? "unknown"
        if let trustedProxy, peer == trustedProxy, let forwarded = request.headers[.xForwardedFor] {
            // The last hop the proxy added is the one it saw.
            if let last = forwarded.split(separator: ",").last { return last.trimmingCharacters(in: .whitespaces) }
        }
        return peer
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: "frame-ancestors 'none'",
            .cacheControl: "no-store",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String, cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
