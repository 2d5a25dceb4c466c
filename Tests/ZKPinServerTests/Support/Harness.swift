import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
import ZKPinProtocol
import ZKPinTestSupport
import ZKPinWire

@testable import ZKPinServer

/// One HTTP answer, whichever way it came.
struct Reply: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func json<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(T.self, from: Data(body)) }
    var text: String { String(decoding: body, as: UTF8.self) }
    var error: ErrorBody? { try? json(ErrorBody.self) }
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    /// The `name=value` of the page-binding cookie this answer sets (PageBinding), as a
    /// `Cookie` header for the page's completion.
    var pageCookie: (String, String)? {
        headers.lazy.filter { $0.0.lowercased() == "set-cookie" }.map { String($0.1.split(separator: ";")[0]) }
            .first { $0.hasPrefix("zkpin-page=") || $0.hasPrefix("__Host-zkpin-page=") }.map { ("Cookie", $0) }
    }
}

/// How a test talks to a server: in process (HummingbirdTesting) or over a socket.
protocol Transport: Sendable {
    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> Reply
}

extension Transport {
    func get(_ path: String, headers: [(String, String)] = []) async throws -> Reply {
        try await send("GET", path, headers: headers, body: nil)
    }
    func json(_ method: String, _ path: String, _ value: some Encodable) async throws -> Reply {
        try await send(method, path, headers: [("Content-Type", "application/json")], body: Array(try JSONEncoder().encode(value)))
    }
    func form(_ path: String, _ fields: [String: String], headers: [(String, String)] = []) async throws -> Reply {
        let allowed = CharacterSet.alphanumerics
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        return try await send("POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers, body: Array(body.utf8))
    }
}

struct RouterTransport: Transport {
    let client: any TestClientProtocol
    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> Reply {
        var fields = HTTPFields()
        for (k, v) in headers { fields.append(HTTPField(name: HTTPField.Name(k)!, value: v)) }
        let r = try await client.execute(
            uri: path, method: HTTPRequest.Method(method)!, headers: fields,
            body: body.map { ByteBuffer(bytes: $0) })
        return Reply(
            status: Int(r.status.code), headers: r.headers.map { ($0.name.canonicalName, $0.value) },
            body: Array(r.body.readableBytesView))
    }
}

struct SocketTransport: Transport {
    let base: String
    func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) async throws -> Reply {
        let url = path.hasPrefix("http") ? path : base + path
        let r = try await HTTPJSON.send(method: method, url: url, headers: headers, body: body)
        return Reply(status: r.status, headers: r.headers, body: r.body)
    }
}

/// A relying party in a temporary data folder, with a manual clock.
struct Harness: @unchecked Sendable {  // the router is only read after setup
    let dir: String
    let clock: ManualClock
    let rp: RelyingParty
    let assembly: ServerAssembly
    var router: Router<AppContext> { assembly.router }
    var outbox: String { dir + "/outbox" }

    static func make(
        curve: CurveID = .bn254cx, permits: Bool = false, configure: (inout ServeOptions) -> Void = { _ in },
        wrapStore: (Store) -> Store = { $0 }
    ) async throws -> Harness {
        let dir = try TempDir.make()
        var o = ServeOptions()
        o.dataDirectory = dir
        o.curve = curve
        o.permits = permits
        o.publicURL = "http://127.0.0.1:8080"
        configure(&o)
        let clock = ManualClock()
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let (rp, dta2) = try await ZKPinServerApp.makeRelyingParty(o, clock: clock.clock, logger: logger, wrapStore: wrapStore)
        LiveObjects.track(rp.store, as: Test.current.map { "\($0.sourceLocation.fileName) \($0.name)" } ?? "a harness")
        return Harness(dir: dir, clock: clock, rp: rp, assembly: try ZKPinServerApp.assemble(rp: rp, dta2: dta2, options: o, logger: logger))
    }

    func run<T: Sendable>(_ body: @Sendable (any Transport) async throws -> T) async throws -> T {
        let app = Application(router: router)
        return try await app.test(.router) { client in try await body(RouterTransport(client: client)) }
    }
}
