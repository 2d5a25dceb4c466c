import AsyncHTTPClient
import Foundation
import NIOCore

/// CIBA ping mode (CIBA Core 1.0 section 10.2): once the person answered, the site's
/// registered notification endpoint gets `{"auth_req_id": ...}` with the request's
/// `client_notification_token` as a bearer token; the site then polls the token endpoint.
/// Sent once, in the background (the person's answer does not wait for the site), audited.
struct BackchannelNotifier: Sendable {
    let audit: AuditTrail

    func ping(endpoint: String, token: String, authReqId: String, clientId: String) {
        Task {
            var request = HTTPClientRequest(url: endpoint)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer " + token)
            let body = (try? JSONEncoder().encode(["auth_req_id": authReqId])) ?? Data()
            request.body = .bytes(ByteBuffer(bytes: body))
            do {
                // Never followed to a redirect: a site must not point this request at another address.
                let response = try await HTTPJSON.noRedirects.execute(request, timeout: .seconds(10))
                let ok = (200..<300).contains(Int(response.status.code))
                await audit.record(ok ? "ciba_ping" : "ciba_ping_failed", "client \(clientId): HTTP \(response.status.code)")
            } catch {
                await audit.record("ciba_ping_failed", "client \(clientId): \(error)")
            }
        }
    }
}
