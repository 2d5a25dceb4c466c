import Foundation
import ZKPinWire

/// The person's events as they happen (`GET /rps/push/events`, docs/api.md "Push"): one
/// server-sent events stream proved with the identity's holder proof, opened again whenever
/// it ends (the server ends each after 10 minutes) or breaks (a restart, the network), with
/// `Last-Event-ID` so that what the server recorded meanwhile still arrives.
public struct LiveEvents: Sendable {
    public let streams: EventStreamClient
    /// Seconds between failed attempts, one after another; the last repeats. Short enough that
    /// a restarted server is found again within seconds, long enough not to hammer it.
    public var backoff: [Int] = [1, 2, 4, 8, 15]

    public init(streams: EventStreamClient) { self.streams = streams }

    public enum Connection: Sendable, Equatable {
        /// The first connection of this watch.
        case first
        /// Back after `lost`.
        case afterLoss
        /// Reconnected after the server ended a stream (nothing was lost; said to nobody).
        case afterEnd
    }

    public enum Update: Sendable, Equatable {
        case connected(Connection)
        /// The connection broke or could not be made; told once per outage, with the wait
        /// before the next try.
        case lost(reason: String, retryInSeconds: Int)
        /// An event: its kind ("approval", "identity") and what it carries (nil when its data
        /// is not the JSON of a push message).
        case event(kind: String, payload: PushPayload?)
    }

    /// Runs until the task is cancelled (then returns) or the server refuses the stream in a
    /// way another try cannot mend (throws: no holder proof, 400, 403, 404).
    public func watch(identity: Identity, service: Service, _ update: (Update) async -> Void) async throws(ClientError) {
        let (mpinId, holder) = try PushSubscriptions.proof(identity)
        let url = service.pushURL("events")
        let headers = [("X-ZKPin-Identity", mpinId), ("X-ZKPin-Holder", holder)]
        var lastEventID: String?
        var everConnected = false
        var inOutage = false
        var failures = 0
        while !Task.isCancelled {
            let reason: String
            do throws(ClientError) {
                let end = try await streams.open(url, headers: headers, lastEventID: lastEventID) { signal in
                    switch signal {
                    case .opened:
                        let connection: Connection = !everConnected ? .first : inOutage ? .afterLoss : .afterEnd
                        everConnected = true
                        inOutage = false
                        failures = 0
                        await update(.connected(connection))
                    case .event(let event):
                        if !event.id.isEmpty { lastEventID = event.id }
                        let payload = try? JSONDecoder().decode(PushPayload.self, from: Data(event.data.utf8))
                        await update(.event(kind: event.type, payload: payload))
                    }
                }
                switch end {
                case .ended(let retry):
                    // The stream's time is up (or the server is stopping): come back after the
                    // wait it asked for; a failure then is told as a loss.
                    guard await Self.sleep(milliseconds: min(retry ?? 2000, 60_000)) else { return }
                    continue
                case .refused(let status, let body):
                    reason = try Self.retryable(status: status, body: body, url: url)
                }
            } catch {
                if case .cancelled = error { return }
                if Task.isCancelled { return }
                reason = Self.reason(error)
            }
            let wait = backoff[min(failures, backoff.count - 1)]
            failures += 1
            if !inOutage {
                inOutage = true
                await update(.lost(reason: reason, retryInSeconds: wait))
            }
            guard await Self.sleep(milliseconds: wait * 1000) else { return }
        }
    }

    /// Why a refusal is worth another try (429, 5xx: said in words), or the error that ends
    /// the watch.
    static func retryable(status: Int, body: [UInt8], url: String) throws(ClientError) -> String {
        let message = (try? JSONDecoder().decode(ErrorBody.self, from: Data(body))).map { DisplayText.escaped($0.message) }
        switch status {
        case 429, 500...599: return "HTTP \(status)" + (message.map { ": \($0)" } ?? "")
        case 400: throw .badInput("The server refused the live stream: \(message ?? "bad request").")
        case 403: throw .refused("The server refused the live stream: \(message ?? "forbidden").")
        case 404:
            throw .unexpectedResponse(
                url: url, status: 404,
                detail: "this server does not offer live requests (an older version?); use `zkpin approve --wait SECONDS` instead")
        default:
            throw .unexpectedResponse(url: url, status: status, detail: message ?? "not an event stream")
        }
    }

    /// A short reason for a broken connection (the full messages say what to do, which here
    /// is: nothing, the watch tries again).
    static func reason(_ error: ClientError) -> String {
        switch error {
        case let .networkError(_, reason): return reason
        case let .timeout(_, seconds): return "no answer" + (seconds.map { " within \($0) s" } ?? "")
        default: return error.message
        }
    }

    /// False when the task was cancelled meanwhile.
    static func sleep(milliseconds: Int) async -> Bool {
        do { try await Task.sleep(for: .milliseconds(milliseconds)) } catch { return false }
        return !Task.isCancelled
    }
}
