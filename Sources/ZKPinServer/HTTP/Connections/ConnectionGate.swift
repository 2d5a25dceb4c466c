import NIOCore
import Synchronization

/// Counts the connections being served, shared by every child channel of one server: all of
/// them (`limit`), and those of each client address (`perAddress`; issue 29, finding 2: one
/// host holding every connection kept `/status` at 503 for everyone). The trusted proxy's
/// address is counted only in the total: every client behind it shares it.
final class ConnectionGate: Sendable {
    let limit: Int
    let perAddress: Int
    let exempt: String?
    private let open = Atomic<Int>(0)
    private let byAddress = Mutex<[String: Int]>([:])

    /// Why a connection was not admitted.
    enum Refusal: Sendable { case full, address }

    init(limit: Int, perAddress: Int? = nil, exempt: String? = nil) {
        self.limit = limit
        self.perAddress = perAddress ?? limit
        self.exempt = exempt
    }

    /// Admits one more connection from `address` when under both limits; nil when admitted.
    func enter(address: String? = nil) -> Refusal? {
        let now = open.wrappingAdd(1, ordering: .relaxed).newValue
        guard now <= limit else {
            open.wrappingSubtract(1, ordering: .relaxed)
            return .full
        }
        guard let address, address != exempt else { return nil }
        let admitted = byAddress.withLock { counts in
            let n = counts[address, default: 0]
            guard n < perAddress else { return false }
            counts[address] = n + 1
            return true
        }
        if admitted { return nil }
        open.wrappingSubtract(1, ordering: .relaxed)
        return .address
    }

    func leave(address: String? = nil) {
        open.wrappingSubtract(1, ordering: .relaxed)
        guard let address, address != exempt else { return }
        byAddress.withLock { counts in
            let n = counts[address, default: 0] - 1
            counts[address] = n > 0 ? n : nil
        }
    }

    var count: Int { open.load(ordering: .relaxed) }

    /// The connections open from `address` (for tests and metrics).
    func count(of address: String) -> Int { byAddress.withLock { $0[address, default: 0] } }
}

/// First in every connection's pipeline, before HTTP parsing: a connection over the cap is
/// answered a 503 with a JSON message as soon as it sends anything, then closed (or closed
/// after a few seconds of silence), and never reaches the HTTP stack.
final class ConnectionCapHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let refusal = answer("the server has too many open connections; try again shortly")
    static let addressRefusal = answer("this address has too many open connections to the server; close some and try again shortly")

    static func answer(_ message: String) -> String {
        let body = #"{"error":"unavailable","message":"\#(message)"}"#
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Retry-After: 5\r\nConnection: close\r\n\r\n" + body
    }
    /// How long a refused connection is kept for its request to arrive.
    static let refusedGrace = TimeAmount.seconds(5)

    let gate: ConnectionGate
    private var admitted = false
    private var answered = false
    private var refusal: ConnectionGate.Refusal? = nil
    private var address: String? = nil

    init(gate: ConnectionGate) { self.gate = gate }

    func handlerAdded(context: ChannelHandlerContext) {
        address = context.channel.remoteAddress?.ipAddress
        refusal = gate.enter(address: address)
        admitted = refusal == nil
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
        let buffer = context.channel.allocator.buffer(string: refusal == .address ? Self.addressRefusal : Self.refusal)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    private func release() {
        if admitted { gate.leave(address: address) }
        admitted = false
    }
}
