import Hummingbird
import NIOCore
import Synchronization

/// Request bodies capped per route and read within a deadline: every body is small, so 16 KB
/// at most (the JSON API, the pages' and OpenID Connect's forms), but for the stored approval
/// `/oauth/approval/verify` takes back (an 8 KB claim, percent-encoded: 32 KB). A declared
/// length over the cap is refused (413) before anything is read; a body that has not fully
/// arrived `bodyTimeout` seconds after its head closes the connection. The deadline covers the
/// body only: it ends once the body is read, so a slow handler (a login waiting for its page)
/// is never cut by it.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = AppContext
    let bodyTimeout: Int

    static let apiLimit = 16 * 1024
    static let evidenceLimit = 32 * 1024

    static func limit(for path: String, default fallback: Int) -> Int {
        path == "/oauth/approval/verify" ? min(evidenceLimit, fallback) : min(apiLimit, fallback)
    }

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head else { return try await next(request, context) }
        let limit = Self.limit(for: request.uri.path, default: context.maxUploadSize)
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw HTTPError(.contentTooLarge)
        }
        var request = request
        // The deadline is a timer on the connection's event loop rather than a Swift task per
        // request (tasks were a measurable part of a small POST's CPU). Closing the connection
        // ends the body's stream, so the collection below stops with an error the flag explains.
        let timedOut = TimeoutFlag()
        let deadline = context.channel.map { channel in
            channel.eventLoop.scheduleTask(in: .seconds(Int64(bodyTimeout))) {
                timedOut.isSet.store(true, ordering: .relaxed)
                channel.close(promise: nil)
            }
        }
        do {
            request.body = RequestBody(buffer: try await request.body.collect(upTo: limit))
        } catch  where timedOut.isSet.load(ordering: .relaxed) {
            throw APIError(status: .requestTimeout, code: .badRequest, "the request body did not arrive within \(bodyTimeout) seconds")
        } catch {
            deadline?.cancel()
            throw error
        }
        deadline?.cancel()
        return try await next(request, context)
    }
}

/// Set when a body's deadline passed (its stream then ends with an error that is not a bug).
final class TimeoutFlag: Sendable {
    let isSet = Atomic<Bool>(false)
}
