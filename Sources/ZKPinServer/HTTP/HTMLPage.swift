import HTTPTypes
import Hummingbird
import NIOCore

/// HTML answers and redirects of the browser pages.
enum HTMLPage {
    static func response(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: "frame-ancestors 'none'",
                .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff"
            ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String, cookie: Cookie? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if let cookie { response.setCookie(cookie) }
        return response
    }

    /// A one-message page (the errors of `APIError` for a browser), from the same template as
    /// the provider's messages (Mustache escapes every value).
    static func message(title: String, _ message: String) -> String {
        Pages.messageTemplate?.render(PageStrings.adding(to: ["title": title, "message": message]))
            ?? "<!doctype html><title>Error</title>"  // only a broken install lacks the template, and it fails at start
    }
}
