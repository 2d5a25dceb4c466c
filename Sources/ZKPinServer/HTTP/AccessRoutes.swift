import Hummingbird
import ZKPinWire

/// Access codes for the page: `POST /rps/getAccessNumber`, `/rps/access`, `/rps/codeStatus`.
enum AccessRoutes {
    static func collection(
        access: AccessService, binding: PageBinding, address: ClientAddress
    ) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        // A page that draws its code here completes at /session like the login page: in the
        // browser that drew it (the answer sets its PageBinding cookie).
        routes.post("/rps/getAccessNumber") { request, context in
            let browser = binding.browser(of: request)
            let a = try await access.accessNumber(address: address.of(request, context)) { binding.webOTT(.session, browser: browser) }
            var response = try a.response(from: request, context: context)
            response.setCookie(binding.cookie(browser))
            return response
        }
        routes.post("/rps/access") { request, context in
            try await access.access(try await request.decode(as: AccessRequest.self, context: context))
        }
        routes.post("/rps/codeStatus") { request, context in
            // With the site an OpenID Connect sign-in is for, so the client can name it.
            try await access.codeStatus(try await request.decode(as: CodeStatusRequest.self, context: context), address: address.of(request, context))
        }
        return routes
    }
}
