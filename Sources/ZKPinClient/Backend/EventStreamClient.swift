import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One `text/event-stream` connection over AsyncHTTPClient's streaming body: the answer's head
/// within `timeoutSeconds`, then each event as it arrives, until the server ends the stream,
/// the connection breaks, or the server stays silent for `idleSeconds`.
public struct EventStreamClient: Sendable {
    /// For the answer's head (`zkpin --timeout`).
    public var timeoutSeconds: Int64

    /// A stream silent this long is taken as lost: the server says it is alive every 15 s, and
    /// a connection cut without a reset (a network gone) would otherwise hang for good.
    public static let idleSeconds: Int64 = 45

    public init(timeoutSeconds: Int64 = 5) { self.timeoutSeconds = timeoutSeconds }

    public enum Signal: Sendable {
        /// The server answered 200 with an event stream.
        case opened
        case event(ServerSentEvent)
    }

    public enum End: Sendable, Equatable {
        /// The server closed the stream (its time is up, or it is stopping); `retryMilliseconds`
        /// is what it asked for before reconnecting.
        case ended(retryMilliseconds: Int?)
        /// It answered something other than an event stream: the status and the start of the body.
        case refused(status: Int, body: [UInt8])
    }

    /// The streams' own client: its read timeout fails a silent stream, which the request
    /// client (one deadline per request) must not have. Never shut down, like that one.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(600), read: .seconds(idleSeconds))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Opens the stream and hands on what arrives; returns when it ends. Throws
    /// `networkError` or `timeout` for a connection that fails or breaks, `cancelled` when
    /// the task is.
    public func open(
        _ url: String, headers: [(String, String)], lastEventID: String?, _ receive: (Signal) async -> Void
    ) async throws(ClientError) -> End {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "Accept", value: "text/event-stream")
        request.headers.add(name: "Cache-Control", value: "no-store")
        request.headers.add(name: "User-Agent", value: "zkpin")
        if let lastEventID, !lastEventID.isEmpty { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        var opened = false
        do {
            // The deadline covers the answer's head only; the body's pace is the read timeout's.
            let response = try await Self.client.execute(request, timeout: .seconds(timeoutSeconds))
            let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
            guard response.status == .ok, type.hasPrefix("text/event-stream") else {
                let body = try await response.body.collect(upTo: 64 * 1024)
                return .refused(status: Int(response.status.code), body: Array(body.readableBytesView))
            }
            opened = true
            await receive(.opened)
            var parser = ServerSentEventParser()
            for try await chunk in response.body {
                for event in try parser.feed(chunk.readableBytesView) { await receive(.event(event)) }
            }
            return .ended(retryMilliseconds: parser.retryMilliseconds)
        } catch ServerSentEventParser.Failure.lineTooLong(let limit) {
            throw .unexpectedResponse(url: url, status: 200, detail: "a line of its event stream is longer than \(limit) bytes")
        } catch {
            if Task.isCancelled { throw .cancelled("Stopped.") }
            if let error = error as? HTTPClientError, error == .readTimeout {
                throw .networkError(url: url, reason: "the server said nothing for \(Self.idleSeconds) s")
            }
            // A stream cut short reads as a malformed answer to the HTTP parser; to a person it
            // is a connection that broke.
            if opened { throw .networkError(url: url, reason: "the connection broke (the server stopped, or the network dropped)") }
            throw AsyncHTTPTransport.clientError(error, url: url, seconds: timeoutSeconds)
        }
    }
}
