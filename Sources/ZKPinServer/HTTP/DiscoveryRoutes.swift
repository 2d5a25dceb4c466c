import Hummingbird
import ZKPinWire

/// `GET /service`, `/rps/clientSettings`, `/status`, `/ready` and `/metrics`.
enum DiscoveryRoutes {
    static func collection(rp: RelyingParty) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.get("/service") { _, _ in rp.service() }
        routes.get("/rps/clientSettings") { _, _ in rp.clientSettings() }
        // Liveness: the process answers (200), with the database's state beside it.
        routes.get("/status") { _, _ in
            var status = ServerStatus(role: "rps", curve: rp.config.curve.rawValue, version: ZKPinServerInfo.version)
            status.database = await rp.store.driver.isReachable() ? "ok" : "unavailable"
            return status
        }
        // Readiness, for a load balancer: 503 with Retry-After while the database does not answer.
        routes.get("/ready") { _, _ in
            guard await rp.store.driver.isReachable() else {
                return Response(
                    status: .serviceUnavailable, headers: [.contentType: "application/json", .retryAfter: "5"],
                    body: .init(byteBuffer: .init(string: #"{"status":"unavailable","reason":"the database does not answer"}"#)))
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(string: #"{"status":"ready"}"#)))
        }
        routes.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: .init(string: rp.metrics.text())))
        }
        return routes
    }
}

public enum ZKPinServerInfo {
    public static let version = ZKPinVersion.text
}
