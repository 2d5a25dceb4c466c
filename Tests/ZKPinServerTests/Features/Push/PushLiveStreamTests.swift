import Foundation
import Testing
import ZKPinWire

@testable import ZKPinServer

/// `GET /rps/push/events` over a real socket: an open stream gets a site's request as it is
/// made, `Last-Event-ID` resumes after a reconnect, and only the identity's holder opens one.
@Suite(.serialized) struct PushLiveStreamTests {
    static func open(_ port: Int, _ user: TestUser, holder: String? = nil, lastEventID: String? = nil) throws -> RawSocket {
        let socket = try RawSocket(port: port)
        var head = "GET /rps/push/events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-ZKPin-Identity: \(user.mpinId)\r\n"
        head += "X-ZKPin-Holder: \(holder ?? user.registrationHolder ?? "")\r\n"
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        socket.send(head + "\r\n")
        return socket
    }

    @Test func anOpenStreamGetsTheRequestAsItIsMadeAndResumes() async throws {
        let live = try await LiveServer.start()
        defer { live.stop() }
        let t = live.transport
        let site = try await BackchannelRequestTests.addSite(live.harness)
        let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: live.harness.outbox)
        let stream = try Self.open(live.port, alice)
        let head = await stream.read(until: "retry: 2000", seconds: 10)
        #expect(head.hasPrefix("HTTP/1.1 200") && head.lowercased().contains("content-type: text/event-stream"), "\(head)")
        let asked = try await BackchannelRequestTests.ask(t, site, BackchannelRequestTests.payment).json(BackchannelResponse.self)
        let event = await stream.read(until: "}\n\n", seconds: 10)
        #expect(event.contains("event: approval\ndata: {"), "\(event)")
        let data = try #require(event.components(separatedBy: "data: ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        let payload = try JSONDecoder().decode(PushPayload.self, from: Data(data.utf8))
        #expect(payload.id == asked.auth_req_id && payload.message == "Pay 100 EUR to Bob" && payload.site == "Bank")
        let id = try #require(event.components(separatedBy: "id: ").last?.split(separator: "\n").first.map(String.init))

        // A client that reconnects from before the event gets it again; from it, nothing old.
        let resumed = try Self.open(live.port, alice, lastEventID: "0")
        #expect(await resumed.read(until: "event: approval", seconds: 10).contains(asked.auth_req_id))
        let caughtUp = try Self.open(live.port, alice, lastEventID: id)
        let quiet = await caughtUp.read(until: "event: approval", seconds: 2)
        #expect(!quiet.contains("event: approval"), "\(quiet)")
    }

    @Test func onlyTheHolderOpensAStreamAndAtMostThree() async throws {
        let live = try await LiveServer.start()
        defer { live.stop() }
        let t = live.transport
        let alice = try await TestUser.register(t, email: "alice@example.com", pin: 1234, outbox: live.harness.outbox)
        let wrong = try Self.open(live.port, alice, holder: String(repeating: "a", count: 64))
        #expect(await wrong.read(until: "\r\n", seconds: 10).hasPrefix("HTTP/1.1 403"))
        let missing = try RawSocket(port: live.port)
        missing.send("GET /rps/push/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await missing.read(until: "\r\n", seconds: 10).hasPrefix("HTTP/1.1 400"))
        var streams: [RawSocket] = []
        for _ in 0..<PushLiveStream.streamsPerIdentity {
            let s = try Self.open(live.port, alice)
            #expect(await s.read(until: "retry: 2000", seconds: 10).hasPrefix("HTTP/1.1 200"))
            streams.append(s)
        }
        let fourth = try Self.open(live.port, alice)
        #expect(await fourth.read(until: "\r\n", seconds: 10).hasPrefix("HTTP/1.1 429"))
        #expect(streams.count == 3)
    }
}
