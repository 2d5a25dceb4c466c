import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// A site that asks a person to approve something by OpenID CIBA (poll mode) on a `TestServer`:
/// registered with `zkpin-server admin clients add NAME --ciba poll`, it posts
/// `/oauth/bc-authorize` and polls `/oauth/token` as a relying party does (forms, Basic auth).
struct CIBASite {
    let base: String
    let id: String
    let secret: String

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func add(_ name: String, on server: TestServer) async throws -> CIBASite {
        let add = try ChildProcess(Binaries.server, ["admin", "clients", "add", name, "--ciba", "poll", "--data", server.data])
        add.closeInput()
        #expect(await add.waitForExit() == 0, "\(add.standardError)")
        let id = try #require(firstMatch(#"client_id: (\S+)"#, in: add.standardOutput))
        let secret = try #require(firstMatch(#"client_secret: (\S+)"#, in: add.standardOutput))
        return CIBASite(base: server.base, id: id, secret: secret)
    }

    /// `POST /oauth/bc-authorize`: asks `hint` to approve `message`; the auth_req_id.
    func ask(_ message: String, hint: String) async throws -> String {
        let (status, body) = try await post("/oauth/bc-authorize", ["scope": "openid email", "login_hint": hint, "binding_message": message])
        guard status == 200, let id = body["auth_req_id"] as? String else { throw Failure(description: "bc-authorize answered \(status): \(body)") }
        return id
    }

    /// Polls `/oauth/token` until the request is answered; the token response or the error.
    func answer(_ authReqId: String, seconds: Double = 60) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        var interval = 5
        while Date() < deadline {
            try await Task.sleep(for: .seconds(interval))
            let (status, body) = try await post("/oauth/token", ["grant_type": "urn:openid:params:grant-type:ciba", "auth_req_id": authReqId])
            if status == 200 { return body }
            switch body["error"] as? String {
            case "slow_down": interval += 5
            case "authorization_pending": continue
            default: return body
            }
        }
        throw Failure(description: "no answer to \(authReqId) within \(seconds) s")
    }

    private func post(_ path: String, _ fields: [String: String]) async throws -> (Int, [String: Any]) {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Authorization", value: "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString())
        request.body = .bytes(ByteBuffer(string: Self.form(fields)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
        return (Int(response.status.code), object)
    }

    static func form(_ fields: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
