import Hummingbird
import ZKPinWire

/// The JSON endpoints of spec/rps-api.md on a router.
enum RPRoutes {
    static func add(to router: Router<AppContext>, rp: RelyingParty) {
        let proxy = rp.config.trustedProxy
        @Sendable func address(_ r: Request, _ c: AppContext) -> String { HTTPHelpers.address(r, c, trustedProxy: proxy) }

        router.get("/service") { _, _ in HTTPHelpers.json(rp.service()) }
        router.get("/rps/clientSettings") { _, _ in HTTPHelpers.json(rp.clientSettings()) }

        router.put("/rps/user") { request, context in
            let body = try await HTTPHelpers.decode(RegisterRequest.self, from: request)
            return HTTPHelpers.json(try await rp.register(body, address: address(request, context)))
        }
        router.put("/rps/user/:mpinId") { request, context in
            let mpinId = context.parameters.get("mpinId") ?? ""
            let body = try await HTTPHelpers.decode(ResendRequest.self, from: request)
            return HTTPHelpers.json(try await rp.resend(mpinId: mpinId, body, address: address(request, context)))
        }
        router.get("/rps/signature/:mpinId") { request, context in
            let mpinId = context.parameters.get("mpinId") ?? ""
            return HTTPHelpers.json(try await rp.signature(mpinId: mpinId, regOTT: request.uri.queryParameters.get("regOTT")))
        }
        router.get("/rps/timePermit/:mpinId") { _, context in
            HTTPHelpers.json(try await rp.timePermit(mpinId: context.parameters.get("mpinId") ?? ""))
        }

        router.post("/rps/pass1") { request, _ in
            HTTPHelpers.json(try await rp.pass1(try await HTTPHelpers.decode(Pass1Request.self, from: request)))
        }
        router.post("/rps/pass2") { request, context in
            let body = try await HTTPHelpers.decode(Pass2Request.self, from: request)
            return HTTPHelpers.json(try await rp.pass2(body, address: address(request, context)))
        }
        router.post("/rps/authenticate") { request, context in
            let body = try await HTTPHelpers.decode(AuthenticateRequest.self, from: request)
            return HTTPHelpers.json(try await rp.authenticate(body, address: address(request, context)))
        }

        router.post("/rps/getAccessNumber") { _, _ in HTTPHelpers.json(try await rp.accessNumber()) }
        router.post("/rps/access") { request, _ in
            HTTPHelpers.json(try await rp.access(try await HTTPHelpers.decode(AccessRequest.self, from: request)))
        }
        router.post("/rps/codeStatus") { request, context in
            let body = try await HTTPHelpers.decode(CodeStatusRequest.self, from: request)
            try await rp.codeStatus(body, address: address(request, context))
            return HTTPHelpers.json([String: String]())
        }

        router.get("/status") { _, _ in
            HTTPHelpers.json(ServerStatus(role: "rps", curve: rp.config.curve.rawValue, version: ZKPinServerInfo.version))
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: .init(byteBuffer: .init(string: rp.metrics.text())))
        }
    }
}

public enum ZKPinServerInfo {
    public static let version = ZKPinVersion.text
}
