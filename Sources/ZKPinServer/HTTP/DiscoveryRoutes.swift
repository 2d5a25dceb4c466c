import Hummingbird
import ZKPinWire

/// `GET /service`, `/rps/clientSettings`, `/status` and `/metrics`.
enum DiscoveryRoutes {
    static func collection(rp: RelyingParty) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.get("/service") { _, _ in rp.service() }
        routes.get("/rps/clientSettings") { _, _ in rp.clientSettings() }
        routes.get("/status") { _, _ in
            ServerStatus(role: "rps", curve: rp.config.curve.rawValue, version: ZKPinServerInfo.version)
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
