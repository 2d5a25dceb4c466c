import Hummingbird

/// The site's side of approvals (OpenID CIBA): `POST /oauth/bc-authorize` asks a person,
/// `/oauth/token` with the CIBA grant redeems the answer (`grant`), and
/// `POST /oauth/approval/verify` checks a stored approval again. Client-authenticated like the
/// token endpoint (`TokenRoutes.clientAuthenticated`).
enum CIBARoutes {
    static let grant = ExtensionGrant(
        type: OIDCProvider.cibaGrant,
        redeem: { provider, p, client, address throws(OAuthError) in
            try await provider.redeemBackchannel(authReqId: p.auth_req_id, client: client, address: address)
        },
        describe: { metadata in
            metadata.backchannel_authentication_endpoint = metadata.issuer + "/oauth/bc-authorize"
            metadata.backchannel_token_delivery_modes_supported = ["poll", "ping"]
            metadata.backchannel_user_code_parameter_supported = false
        })

    static func collection(_ web: ProviderWeb, approvals: ApprovalService) -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let provider = web.provider
        routes.post("/oauth/bc-authorize") { request, context in
            try await TokenRoutes.clientAuthenticated(web, request, context, BackchannelParameters.self) { params, basic, from in
                try await provider.backchannelAuthorize(params, basic: basic, address: from)
            }
        }
        routes.post("/oauth/approval/verify") { request, context in
            try await TokenRoutes.clientAuthenticated(web, request, context, ApprovalVerifyParameters.self) { params, basic, from in
                try await provider.verifyApproval(params, basic: basic, address: from, approvals: approvals)
            }
        }
        return routes
    }
}

extension BackchannelResponse: ResponseEncodable {}
extension ApprovalVerifyResponse: ResponseEncodable {}
