import Hummingbird
import ZKPinWire

/// `POST /rps/approvals` and `POST /rps/approvals/answer`: the person's device lists its
/// pending CIBA requests and answers one, each request signed (DVS) by the identity.
enum ApprovalRoutes {
    static func collection(approvals: ApprovalService, address: ClientAddress) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        routes.post("/rps/approvals") { request, context in
            let body = try await request.decode(as: ApprovalsRequest.self, context: context)
            return try await approvals.pending(body, address: address.of(request, context))
        }
        routes.post("/rps/approvals/answer") { request, context in
            let body = try await request.decode(as: ApprovalAnswerRequest.self, context: context)
            return try await approvals.answer(body, address: address.of(request, context))
        }
        return routes
    }
}
