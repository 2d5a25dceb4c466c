import Hummingbird
import ZKPinWire

/// Access codes for the page: `POST /rps/getAccessNumber`, `/rps/access`, `/rps/codeStatus`.
enum AccessRoutes {
    static func collection(access: AccessService, siteNames: SiteNames, clock: ServerClock, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.post("/rps/getAccessNumber") { request, context in try await access.accessNumber(address: address.of(request, context)) }
        routes.post("/rps/access") { request, context in
            try await access.access(try await request.decode(as: AccessRequest.self, context: context))
        }
        routes.post("/rps/codeStatus") { request, context in
            let body = try await request.decode(as: CodeStatusRequest.self, context: context)
            try await access.codeStatus(body, address: address.of(request, context))
            // The site an OpenID Connect sign-in is for, so the client can name it.
            return CodeStatusResponse(clientName: siteNames.name(code: body.wid, now: clock.now))
        }
        return routes
    }
}
