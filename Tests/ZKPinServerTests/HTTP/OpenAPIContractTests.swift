import Foundation
import Logging
import Testing
import ZKPinProtocol

@testable import ZKPinServer

/// openapi.yaml names exactly the routes the servers register: every (method, path) of
/// `zkpin-server serve` (with D-TA 2 in process under /dta2) and of `zkpin-server dta` (the
/// `/dta2` paths at its root), no more and no fewer. Hummingbird's `Router.routes` lists what
/// was registered, with captures written `{name}` as OpenAPI writes them.
@Suite struct OpenAPIContractTests {
    static let specPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("openapi.yaml").path

    static func spec() throws -> Set<String> {
        try OpenAPIOperations.read(String(contentsOfFile: specPath, encoding: .utf8))
    }

    @Test func specNamesEveryRouteOfServeAndNoOther() async throws {
        let spec = try Self.spec()
        // With every optional part on (--forward-auth, --admins), so their routes are compared too.
        let h = try await Harness.make {
            $0.forwardAuth = "app.example.com=*"
            $0.admins = "ada@example.com"
        }
        let routes = Set(h.router.routes.map { "\($0.method.rawValue) \($0.path)" })
        // A reader that found nothing, or a router without its OIDC or D-TA 2 routes, would
        // make the comparison below vacuous.
        #expect(routes.contains("POST /rps/pass2") && routes.contains("GET /oauth/jwks") && routes.contains("GET /dta2/status"))
        #expect(routes.contains("GET /auth/verify") && routes.contains("GET /admin/audit"))
        #expect(spec.contains("PUT /rps/user/{mpinId}") && spec.count > 30)
        #expect(spec.subtracting(routes).sorted() == [], "in openapi.yaml but not registered by zkpin-server serve")
        #expect(routes.subtracting(spec).sorted() == [], "registered by zkpin-server serve but missing from openapi.yaml")
    }

    @Test func specsDTA2PathsAreWhatZkpinServerDtaServesAtItsRoot() throws {
        let dir = try TempDir.make()
        let suite = CurveID.bn254cx.suite
        let dta2 = DTA2Service(
            authority: try TrustedAuthority.load(path: dir + "/dta2.master", suite: suite),
            key: Array(repeating: 7, count: 32))
        let routes = Set(
            ZKPinServerApp.dtaRouter(dta2, logger: Logger(label: "test")).routes
                .map { "\($0.method.rawValue) \($0.path)" })
        let spec = Set(
            try Self.spec().compactMap { operation -> String? in
                guard let range = operation.range(of: " /dta2/") else { return nil }
                return operation.replacingCharacters(in: range, with: " /")
            })
        #expect(routes.contains("GET /clientSecret"))
        #expect(spec.subtracting(routes).sorted() == [], "under /dta2 in openapi.yaml but not served by zkpin-server dta")
        #expect(routes.subtracting(spec).sorted() == [], "served by zkpin-server dta but missing under /dta2 in openapi.yaml")
    }

    /// The reader itself: operations under `paths:` only, comments and nested keys ignored.
    @Test func readerTakesPathsAndMethodsOnly() {
        let yaml = """
            openapi: 3.0.3
            paths:
              # a comment
              /a:
                get:
                  parameters:
                    - name: get
                  responses:
                    "200": { description: ok }
                post:
                  summary: x
              /b/{id}:
                put: { summary: y }
            components:
              schemas:
                /c:
                  get: {}
            """
        #expect(OpenAPIOperations.read(yaml) == ["GET /a", "POST /a", "PUT /b/{id}"])
    }
}

/// A line-based reader of an OpenAPI document's `paths:` section: the path keys (indented two
/// spaces) and the method keys under them (four spaces). Enough for this repository's
/// openapi.yaml, which writes its paths in block style; no YAML library needed.
enum OpenAPIOperations {
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    static func read(_ yaml: String) -> Set<String> {
        var operations: Set<String> = []
        var inPaths = false
        var path: String?
        for raw in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = line.prefix { $0 == " " }.count
            if indent == 0 {
                inPaths = trimmed == "paths:"
                path = nil
                continue
            }
            guard inPaths, let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = String(trimmed[..<colon])
            if indent == 2 {
                path = key.hasPrefix("/") ? key : nil
            } else if indent == 4, let path, methods.contains(key) {
                operations.insert("\(key.uppercased()) \(path)")
            }
        }
        return operations
    }
}
