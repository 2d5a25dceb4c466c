import Hummingbird
import ZKPinWire

/// `GET /rps/push/settings` (the VAPID key and the allowed services), and the device's
/// subscriptions: `POST /rps/push/subscriptions` (store), `POST /rps/push/subscriptions/list`,
/// `DELETE /rps/push/subscriptions` (remove one); `GET /rps/push/events`, the live stream.
enum PushRoutes {
    static func collection(_ push: PushFeature, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let subscriptions = push.subscriptions
        routes.get("/rps/push/settings") { _, _ in
            PushSettings(vapidPublicKey: push.sender.vapid.applicationServerKey, services: push.options.services.rules.map(\.description))
        }
        routes.get("/rps/push/events") { request, context in
            try await push.liveStream.response(request, address: address.of(request, context))
        }
        routes.post("/rps/push/subscriptions") { request, context in
            let body = try await request.decode(as: PushSubscribeRequest.self, context: context)
            return try await subscriptions.subscribe(body, address: address.of(request, context))
        }
        routes.post("/rps/push/subscriptions/list") { request, context in
            let body = try await request.decode(as: PushListRequest.self, context: context)
            return try await subscriptions.list(body, address: address.of(request, context))
        }
        routes.delete("/rps/push/subscriptions") { request, context in
            let body = try await request.decode(as: PushUnsubscribeRequest.self, context: context)
            return try await subscriptions.unsubscribe(body, address: address.of(request, context))
        }
        return routes
    }
}

extension PushSettings: ResponseEncodable {}
extension PushSubscriptionView: ResponseEncodable {}
extension PushListResponse: ResponseEncodable {}
