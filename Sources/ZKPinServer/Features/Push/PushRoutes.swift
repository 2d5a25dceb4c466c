import Hummingbird
import ZKPinWire

/// `GET /rps/push/settings` (the VAPID key and the allowed services), and the device's
/// subscriptions: `POST /rps/push/subscriptions` (store), `POST /rps/push/subscriptions/list`,
/// `DELETE /rps/push/subscriptions` (remove one); `GET /rps/push/events`, the live stream;
/// push sign-in: `POST /rps/push/signin` (the page), `/rps/push/signin/pending` and
/// `/rps/push/signin/answer` (the device).
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
        // Push sign-in: the sign-in page asks, the device lists and answers.
        routes.post("/rps/push/signin") { request, context in
            let body = try await request.decode(as: PushSignInRequest.self, context: context)
            return try await push.signIns.start(body, address: address.of(request, context))
        }
        routes.post("/rps/push/signin/pending") { request, context in
            let body = try await request.decode(as: PushListRequest.self, context: context)
            return try await push.signIns.pending(body, address: address.of(request, context))
        }
        routes.post("/rps/push/signin/answer") { request, context in
            let body = try await request.decode(as: PushSignInAnswerRequest.self, context: context)
            return try await push.signIns.answer(body, address: address.of(request, context))
        }
        return routes
    }
}

extension PushSettings: ResponseEncodable {}
extension PushSubscriptionView: ResponseEncodable {}
extension PushListResponse: ResponseEncodable {}
extension PushSignInStarted: ResponseEncodable {}
extension PushSignInList: ResponseEncodable {}
extension PushSignInAnswer: ResponseEncodable {}
