import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import ZKPinWire

/// `GET /rps/push/events`: the person's events as server-sent events while an app or `zkpin
/// approve --watch` is open, the same JSON a push message carries. The identity proves
/// itself with its holder proof (headers `X-ZKPin-Identity`, `X-ZKPin-Holder`); the events
/// come from the store (`push_events`), so a stream on any instance sees what another
/// recorded, and `Last-Event-ID` resumes after a reconnect. A stream lasts 10 minutes (the
/// client reconnects), says it is alive every 15 seconds, and an identity holds at most 3.
final class PushLiveStream: Sendable {
    let subscriptions: PushSubscriptions
    let storage: StorageGateway
    let clock: ServerClock
    let live: PushBroadcast
    /// Open streams per identity (this process's).
    let open = Mutex<[String: Int]>([:])

    init(subscriptions: PushSubscriptions, storage: StorageGateway, clock: ServerClock, live: PushBroadcast) {
        self.subscriptions = subscriptions
        self.storage = storage
        self.clock = clock
        self.live = live
    }

    static let identityHeader = HTTPField.Name("X-ZKPin-Identity")!
    static let holderHeader = HTTPField.Name("X-ZKPin-Holder")!
    static let streamsPerIdentity = 3
    static let lifetime: Duration = .seconds(600)
    static let keepAlive: Duration = .seconds(15)
    static let poll: Duration = .seconds(1)

    func response(_ request: Request, address: String) async throws -> Response {
        guard let mpinId = request.headers[Self.identityHeader], let proof = request.headers[Self.holderHeader] else {
            throw APIError.bad("send the identity's mpinId in X-ZKPin-Identity and its holder proof in X-ZKPin-Holder")
        }
        let identity = try await subscriptions.holder(mpinId, proof, address: address)
        var after = 0
        if let last = request.headers[HTTPField.Name("Last-Event-ID")!] {
            guard let position = Int(last), position >= 0 else { throw APIError.bad("Last-Event-ID must be an event's id") }
            after = position
        } else {
            after = try await storage("read live events") { try await $0.lastPushEventPosition(userId: identity.userId) }
        }
        let taken = open.withLock { streams -> Bool in
            guard streams[identity.mpinId, default: 0] < Self.streamsPerIdentity else { return false }
            streams[identity.mpinId, default: 0] += 1
            return true
        }
        guard taken else { throw APIError(.rateLimited, "this identity has \(Self.streamsPerIdentity) live streams open already") }
        let userId = identity.userId
        let key = identity.mpinId
        let start = after
        let body = ResponseBody { [self] writer in
            defer { open.withLock { $0[key, default: 1] -= 1 } }
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            let end = ContinuousClock.now + Self.lifetime
            var lastWrite = ContinuousClock.now
            var position = start
            while ContinuousClock.now < end, !Task.isCancelled {
                let now = clock.now
                let events = (try? await storage("read live events") { try await $0.pushEvents(userId: userId, after: position, now: now) }) ?? []
                for (at, payload) in events {
                    let kind = (try? JSONDecoder().decode(PushPayload.self, from: Data(payload.utf8)).kind) ?? "event"
                    try await writer.write(ByteBuffer(string: "id: \(at)\nevent: \(kind)\ndata: \(payload)\n\n"))
                    position = at
                    lastWrite = .now
                }
                if ContinuousClock.now - lastWrite >= Self.keepAlive {
                    try await writer.write(ByteBuffer(string: ": alive\n\n"))
                    lastWrite = .now
                }
                await live.wait(timeout: Self.poll)
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store", HTTPField.Name("X-Accel-Buffering")!: "no"],
            body: body)
    }
}
