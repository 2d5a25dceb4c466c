import Hummingbird
import ZKPinWire

/// D-TA 2's endpoints under `prefix` ("" when it runs alone, "/dta2" inside the demo server).
enum DTA2Routes {
    static func add(to router: Router<AppContext>, dta2: DTA2Service, prefix: String, withStatus: Bool) {
        router.get("\(prefix)/clientSecret") { request, _ in
            HTTPHelpers.json(try await dta2.clientSecret(query: HTTPHelpers.query(request)))
        }
        router.get("\(prefix)/timePermit") { request, _ in
            HTTPHelpers.json(try await dta2.timePermit(query: HTTPHelpers.query(request)))
        }
        router.get("\(prefix)/serverSecret") { request, _ in
            HTTPHelpers.json(try dta2.serverSecret(query: HTTPHelpers.query(request)))
        }
        if withStatus {
            router.get("\(prefix)/status") { _, _ in
                HTTPHelpers.json(ServerStatus(role: "dta2", curve: dta2.curve.rawValue, version: ZKPinServerInfo.version))
            }
        }
    }
}
