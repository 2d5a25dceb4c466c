import Hummingbird
import ZKPinWire

/// D-TA 2's endpoints under `prefix` ("" when it runs alone, "/dta2" inside the demo server).
enum DTA2Routes {
    static func add(to router: Router<AppContext>, dta2: DTA2Service, prefix: String, withStatus: Bool) {
        @Sendable func query(_ request: Request) -> [String: String] {
            var out: [String: String] = [:]
            for (k, v) in request.uri.queryParameters { out[String(k)] = String(v) }
            return out
        }
        router.get("\(prefix)/clientSecret") { request, _ in try await dta2.clientSecret(query: query(request)) }
        router.get("\(prefix)/timePermit") { request, _ in try await dta2.timePermit(query: query(request)) }
        router.get("\(prefix)/serverSecret") { request, _ in try dta2.serverSecret(query: query(request)) }
        if withStatus {
            router.get("\(prefix)/status") { _, _ in
                ServerStatus(role: "dta2", curve: dta2.curve.rawValue, version: ZKPinServerInfo.version)
            }
        }
    }
}
