import NIOCore
import Synchronization

/// Counts the connections being served, shared by every child channel of one server.
final class ConnectionGate: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Admits one more connection when under the limit.
    func enter() -> Bool {
        let now = open.wrappingAdd(1, ordering: .relaxed).newValue
        if now <= limit { return true }
        open.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    func leave() { open.wrappingSubtract(1, ordering: .relaxed) }

    var count: Int { open.load(ordering: .relaxed) }
}

/// First in every connection's pipeline, before HTTP parsing: a connection over the cap is
/// answered a 503 with a JSON message as soon as it sends anything, then closed (or closed
/// after a few seconds of silence), and never reaches the HTTP stack.
final class ConnectionCapHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let refusal: String = {
        let body = #"{"error":"unavailable","message":"the server has too many open connections; try again shortly"}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Retry-After: 5\r\nConnection: close\r\n\r\n" + body
    }()
    /// How long a refused connection is kept for its request to arrive.
    static let refusedGrace = TimeAmount.seconds(5)

    let gate: ConnectionGate
    private var admitted = false
    private var answered = false

    init(gate: ConnectionGate) { self.gate = gate }

    func handlerAdded(context: ChannelHandlerContext) {
        admitted = gate.enter()
        if !admitted {
            context.eventLoop.scheduleTask(in: Self.refusedGrace) { [channel = context.channel] in channel.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard admitted else {
            refuse(context)
            return
        }
        context.fireChannelRead(data)
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let buffer = context.channel.allocator.buffer(string: Self.refusal)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    private func release() {
        if admitted { gate.leave() }
        admitted = false
    }
}
