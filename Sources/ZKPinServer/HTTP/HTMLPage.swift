import HTTPTypes
import Hummingbird
import NIOCore

/// HTML answers and redirects of the browser pages.
enum HTMLPage {
    static func response(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: "frame-ancestors 'none'",
            .cacheControl: "no-store",
            .xContentTypeOptions: "nosniff",
        ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String, cookie: Cookie? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if let cookie { response.setCookie(cookie) }
        return response
    }

    /// A one-message page (errors outside the templates), every value escaped.
    static func message(title: String, _ message: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><title>\(escape(title))</title></head>
        <body><main><h1>\(escape(title))</h1><p role="alert">\(escape(message))</p></main></body></html>
        """
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
