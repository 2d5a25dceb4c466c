import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the peer address (rate limits, audit).
public struct AppContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
