import Hummingbird
import ZKPinMath

/// Marks the work of a request (its task and the tasks it starts), so that the debug builds'
/// pairing check can tell a request's thread from the pairing worker.
enum RequestScope {
    @TaskLocal static var serving = false

    /// In debug builds, a pairing on a request's thread stops the program (every test that
    /// reaches such a path fails): pairings belong on `LoginBatcher`'s worker.
    static func installPairingCheck() {
        #if DEBUG
            PairingThreadCheck.check = {
                precondition(!RequestScope.serving || LoginBatcher.onWorker, "a pairing ran on a request's thread, not on the pairing worker")
            }
        #endif
    }
}

struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = AppContext

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        try await RequestScope.$serving.withValue(true) { try await next(request, context) }
    }
}
