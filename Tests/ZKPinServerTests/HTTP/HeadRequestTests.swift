import Foundation
import Testing

@testable import ZKPinServer

/// HEAD on a GET route answers as GET does, without the body.
@Suite struct HeadRequestTests {
    @Test func headAnswersAsGetWithoutABody() async throws {
        let live = try await LiveServer.start()
        defer { live.stop() }
        for path in ["/status", "/ready", "/service", "/", "/.well-known/openid-configuration"] {
            let get = try await live.transport.send("GET", path, headers: [], body: nil)
            let head = try await live.transport.send("HEAD", path, headers: [], body: nil)
            #expect(head.status == get.status && get.status == 200, "\(path): HEAD \(head.status), GET \(get.status)")
            #expect(head.body.isEmpty && !get.body.isEmpty, "\(path)")
        }
        // A path with no GET route is still 405 (POST only) or 404.
        #expect(try await live.transport.send("HEAD", "/rps/pass1", headers: [], body: nil).status == 405)
    }
}
