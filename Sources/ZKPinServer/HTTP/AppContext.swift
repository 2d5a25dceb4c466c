import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the peer address (rate limits, audit),
/// with the API's JSON coding and body limit.
public struct AppContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The connection (nil in the in-process test client): closed when a body is too slow.
    public let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Every request body of the API and the pages is small.
    public var maxUploadSize: Int { 64 * 1024 }
    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }
}
