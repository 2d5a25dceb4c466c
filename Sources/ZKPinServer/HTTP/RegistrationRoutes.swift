import HTTPTypes
import Hummingbird
import ZKPinWire

/// Registration and shares: `PUT /rps/user[/:mpinId]`, `GET /rps/signature/:mpinId`,
/// `GET /rps/timePermit/:mpinId`.
enum RegistrationRoutes {
    static func collection(registration: RegistrationService, shares: ShareService, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.put("/rps/user") { request, context in
            let body = try await request.decode(as: RegisterRequest.self, context: context)
            return try await registration.register(body, address: address.of(request, context))
        }
        routes.put("/rps/user/:mpinId") { request, context in
            let body = try await request.decode(as: ResendRequest.self, context: context)
            return try await registration.resend(mpinId: try context.parameters.require("mpinId"), body, address: address.of(request, context))
        }
        routes.get("/rps/signature/:mpinId") { request, context in
            // The header; the query parameter only for clients older than it (rps-api.md).
            let regOTT = request.headers[HTTPField.Name(ShareService.regOTTHeader)!] ?? request.uri.queryParameters.get("regOTT")
            return try await shares.signature(mpinId: try context.parameters.require("mpinId"), regOTT: regOTT)
        }
        routes.get("/rps/timePermit/:mpinId") { request, context in
            try await shares.timePermit(
                mpinId: try context.parameters.require("mpinId"), address: address.of(request, context),
                holder: request.headers[HTTPField.Name(ShareService.holderHeader)!])
        }
        return routes
    }
}
