import HTTPTypes
import Hummingbird
import NIOCore

/// The web client: `/js/...` (the crypto module and its `lib/`) and `/app/...` (the installable
/// app), from the table of `WebFiles`. Every answer carries a strict policy: scripts, styles,
/// images, the manifest, the service worker and requests only from this origin, no inline
/// script, no framing. Files are revalidated (`no-cache` with an ETag): the service worker
/// keeps the app shell for offline use, and an upgrade reaches the next visit.
enum WebRoutes {
    /// The policy; a D-TA 2 on another origin (`dta2URL` absolute) is the one other origin the
    /// app may connect to (for share 2 and time permits; it answers that origin with CORS).
    static func policy(dta2URL: String = "/dta2") -> String {
        var connect = "'self'"
        if dta2URL.hasPrefix("https://") || dta2URL.hasPrefix("http://") { connect += " " + SameOrigin.originOf(dta2URL) }
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src \(connect); "
            + "manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    static func collection(files: WebFiles, dta2URL: String = "/dta2") -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let policy = policy(dta2URL: dta2URL)
        let handler: @Sendable (Request, AppContext) async throws -> Response = { request, _ in
            try answer(files[request.uri.path], request: request, policy: policy)
        }
        // `/app` answers `/app/` too (the app's own URL: the service worker's scope is `/app/`).
        routes.get("/app", use: handler)
        routes.get("/app/:file", use: handler)
        routes.get("/js/:file", use: handler)
        routes.get("/js/lib/:file", use: handler)
        return routes
    }

    static func answer(_ file: WebFiles.File?, request: Request, policy: String) throws -> Response {
        guard let file else { throw HTTPError(.notFound) }
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .cacheControl: "no-cache",
            .eTag: file.etag,
            .contentSecurityPolicy: policy,
            .xContentTypeOptions: "nosniff",
            .init("Referrer-Policy")!: "no-referrer"
        ]
        if request.headers[.ifNoneMatch] == file.etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(file.body.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.body)))
    }
}
