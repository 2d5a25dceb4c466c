import HTTPTypes
import Hummingbird
import Synchronization

/// The methods each registered path answers, so that a request for a path that exists with
/// another method is answered 405 with `Allow` (RFC 9110, 15.5.6) instead of Hummingbird's
/// 404, which would tell a client that the endpoint does not exist.
final class AllowedMethods: Sendable {
    private let routes = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

    /// Called once the router has all its routes.
    func record<Context>(_ router: Router<Context>) {
        let all = router.routes.map { (path: $0.path, method: $0.method) }
        routes.withLock { $0 = all }
    }

    /// The methods of the routes whose path pattern matches `path` (Hummingbird's own element
    /// matching), in a fixed order; empty when no route has that path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let matching = routes.withLock { routes in
            routes.filter { Self.matches($0.path, segments) }.map(\.method)
        }
        return Set(matching).sorted { $0.rawValue < $1.rawValue }
    }

    static func matches(_ pattern: RouterPath, _ segments: [Substring]) -> Bool {
        var index = 0
        for element in pattern.components {
            if element == .recursiveWildcard { return true }
            guard index < segments.count, element ~= segments[index] else { return false }
            index += 1
        }
        return index == segments.count
    }
}
