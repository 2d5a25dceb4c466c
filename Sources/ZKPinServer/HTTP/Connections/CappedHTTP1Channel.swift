import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1 child channel behind a `ConnectionCapHandler`.
struct CappedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let gate: ConnectionGate
    let stalledWriteTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionCapHandler(gate: gate, stalledWriteTimeout: stalledWriteTimeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
