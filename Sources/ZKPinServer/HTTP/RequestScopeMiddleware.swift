import Hummingbird
import ZKPinMath

/// Marks the work of a request (its task and the tasks it starts) for the debug builds' pairing
/// check (`PairingThreadCheck`): pairings belong on `LoginBatcher`'s worker thread, which the
/// mark never reaches.
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = AppContext

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        try await PairingThreadCheck.$onRequestThread.withValue(true) { try await next(request, context) }
    }
}
