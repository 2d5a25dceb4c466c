import HTTPTypes
import Hummingbird
import NIOCore

/// HTML answers and redirects of the browser pages. Pages and redirects carry tokens in their
/// URLs (activation links, authorization codes): no referrer leaves them for another origin
/// (`same-origin`, not `no-referrer`: with that, a browser sends `Origin: null` on the pages'
/// own form posts and the same-origin check refuses them), and no other site may frame them
/// (CSP frame-ancestors, and X-Frame-Options for browsers without it).
enum HTMLPage {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    /// Every page's policy: its stylesheet, scripts, images and requests from this origin only,
    /// no inline script or style, no framing. No form-action: the authorize page's form ends in
    /// a redirect to the site's own address, which form-action would block.
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// `extraPolicy`: one more CSP directive (the sign-out page's `frame-src` of the sites' logout frames).
    static func response(_ text: String, status: HTTPResponse.Status = .ok, extraPolicy: String? = nil) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: extraPolicy.map { policy + "; " + $0 } ?? policy,
                .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
                referrerPolicy: "same-origin",
                frameOptions: "DENY"
            ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String, cookie: Cookie? = nil) -> Response {
        var response = Response(
            status: .seeOther, headers: [.location: location, .cacheControl: "no-store", referrerPolicy: "same-origin"])
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
