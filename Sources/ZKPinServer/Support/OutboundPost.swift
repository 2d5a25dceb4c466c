import AsyncHTTPClient
import NIOCore

/// One POST to a URL the operator named (a site's back-channel logout URI, a hook), and what
/// its answer means to a queue that retries: a 2xx took it; a redirect (never followed: the
/// client does not follow them) or another 4xx refused it for good; a 429, a 5xx, a timeout or
/// no connection is worth another try.
enum OutboundPost {
    enum Outcome: Equatable {
        case delivered(status: Int)
        case retry(String)
        case refused(String)
    }

    static func send(_ request: HTTPClientRequest, with http: HTTPClient, timeout: TimeAmount) async -> Outcome {
        do {
            let response = try await http.execute(request, timeout: timeout)
            _ = try? await response.body.collect(upTo: 64 << 10)  // the connection is reused only once its body is read
            let status = Int(response.status.code)
            switch status {
            case 200..<300: return .delivered(status: status)
            case 300..<400: return .refused("HTTP \(status), a redirect (not followed)")
            case 429, 500...: return .retry("HTTP \(status)")
            default: return .refused("HTTP \(status)")
            }
        } catch {
            return .retry("\(error)")
        }
    }
}
