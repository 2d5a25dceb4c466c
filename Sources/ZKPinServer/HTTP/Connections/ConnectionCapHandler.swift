import NIOCore

/// First in every connection's pipeline, before HTTP parsing.
/// - Over the server's cap: answered a 503 with a JSON message as soon as it sends anything,
///   then closed (or closed after a few seconds of silence).
/// - Over its address's share: answered a 429 at once and closed, so that a host opening
///   connections in a loop holds each descriptor only for that write.
/// - A peer that stops reading (the answer cannot be written for `stalledWriteTimeout`) is
///   closed: otherwise a slow reader holds its connection and the answer's memory for ever.
/// A refused connection never reaches the HTTP stack.
final class ConnectionCapHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let refusal = answer(
        status: "503 Service Unavailable",
        body: #"{"error":"unavailable","message":"the server has too many open connections; try again shortly"}"#)
    static let addressRefusal = answer(
        status: "429 Too Many Requests",
        body: #"{"error":"too_many_connections","message":"too many open connections from your address; close some and try again"}"#)
    /// How long a connection refused for the server's cap is kept for its request to arrive.
    static let refusedGrace = TimeAmount.seconds(5)

    private static func answer(status: String, body: String) -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Retry-After: 5\r\nConnection: close\r\n\r\n" + body
    }

    let gate: ConnectionGate
    let stalledWriteTimeout: TimeAmount
    private var address: ConnectionAddress?
    private var admission = ConnectionGate.Admission.full
    private var holds = false
    private var answered = false
    private var stalled: Scheduled<Void>?

    init(gate: ConnectionGate, stalledWriteTimeout: TimeAmount) {
        self.gate = gate
        self.stalledWriteTimeout = stalledWriteTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        address = ConnectionAddress(context.channel.remoteAddress)
        admission = gate.enter(from: address)
        holds = admission == .admitted
        switch admission {
        case .admitted: break
        case .full:
            context.eventLoop.scheduleTask(in: Self.refusedGrace) { [channel = context.channel] in channel.close(promise: nil) }
        case .addressFull:
            if context.channel.isActive { refuse(context, with: Self.addressRefusal) }
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        if admission == .addressFull { refuse(context, with: Self.addressRefusal) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard admission == .admitted else {
            refuse(context, with: admission == .full ? Self.refusal : Self.addressRefusal)
            return
        }
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stalled?.cancel()
            stalled = nil
        } else if stalled == nil {
            stalled = context.eventLoop.scheduleTask(in: stalledWriteTimeout) { [channel = context.channel] in
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    private func refuse(_ context: ChannelHandlerContext, with answer: String) {
        guard !answered else { return }
        answered = true
        let buffer = context.channel.allocator.buffer(string: answer)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    private func release() {
        stalled?.cancel()
        stalled = nil
        if holds { gate.leave(from: address) }
        holds = false
    }
}
