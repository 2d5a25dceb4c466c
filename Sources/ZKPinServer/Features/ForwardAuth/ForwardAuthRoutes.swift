import Foundation
import HTTPTypes
import Hummingbird

/// `GET /auth/verify`: the question nginx's `auth_request`, Caddy's `forward_auth` and
/// Traefik's ForwardAuth ask before each request to a site they protect. The original
/// address comes from `X-Original-URL` (the nginx snippet sets it) or from `X-Forwarded-Proto`,
/// `-Host` and `-Uri` (Caddy, Traefik). Signed in (the ZKPin session cookie, which
/// `--cookie-domain` shares with the sites) and allowed on that host: 200 with `Remote-User`,
/// `Remote-Email` and `Remote-Name`. Not signed in: 401 for nginx, 302 for the others, both
/// with `Location` the sign-in page that returns to the original address. Signed in but not
/// allowed there, or a host no rule names: 403. A revoked, blocked or signed-out person's
/// next check is 401: the session is looked up on each check, not cached.
enum ForwardAuthRoutes {
    static let originalURL = HTTPField.Name("X-Original-URL")!
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    static let forwardedHost = HTTPField.Name("X-Forwarded-Host")!
    static let forwardedURI = HTTPField.Name("X-Forwarded-Uri")!

    static func collection(rp: RelyingParty, rules: ForwardAuthRules) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let session = SessionCookie(config: rp.config)
        routes.get("/auth/verify") { request, _ in
            let fromNginx = request.headers[originalURL] != nil
            guard let original = Self.original(request), let host = ReturnAddress.host(of: original) else {
                return Self.answer(.badRequest, "send the original address: X-Original-URL, or X-Forwarded-Proto, -Host and -Uri")
            }
            guard rules.hosts[host] != nil else { return Self.answer(.forbidden, "\(host) is not a host ZKPin protects (--forward-auth)") }
            guard let person = try await rp.access.signedInPerson(cookie: session.value(in: request)) else {
                let signIn = rp.config.publicURL + "/?" + ReturnAddress.query(original)
                var response = Self.answer(fromNginx ? .unauthorized : .found, "sign in first: \(signIn)")
                response.headers[.location] = signIn
                return response
            }
            guard rules.allows(person, on: host) else {
                return Self.answer(.forbidden, "\(person) may not enter \(host)")
            }
            var response = Self.answer(.ok, "")
            response.headers[HTTPField.Name("Remote-User")!] = person
            response.headers[HTTPField.Name("Remote-Email")!] = person
            // ZKPin knows a person by their e-mail address only.
            response.headers[HTTPField.Name("Remote-Name")!] = person
            return response
        }
        return routes
    }

    /// The address the proxy was asked for, from its headers; nil when they name none.
    static func original(_ request: Request) -> String? {
        if let url = request.headers[originalURL] { return url }
        guard let host = request.headers[forwardedHost] else { return nil }
        let scheme = request.headers[forwardedProto].flatMap { $0 == "https" || $0 == "http" ? $0 : nil } ?? "http"
        let uri = request.headers[forwardedURI] ?? "/"
        return "\(scheme)://\(host)\(uri.hasPrefix("/") ? uri : "/" + uri)"
    }

    static func answer(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text.isEmpty ? "" : text + "\n")))
    }
}
