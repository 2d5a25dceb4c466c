import Hummingbird

/// HEAD is answered as GET without the body (RFC 9110 section 9.3.2): monitors and link
/// checkers send it, and every GET route would otherwise answer 405.
struct HeadAsGetMiddleware: RouterMiddleware {
    typealias Context = AppContext

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        var head = request.head
        head.method = .get
        var response = try await next(Request(head: head, body: request.body), context)
        response.body = ResponseBody()
        return response
    }
}
