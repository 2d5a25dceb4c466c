import Foundation
import ZKPinClient

/// What a load run measured: successful logins per second over the run, latency percentiles
/// of the successful logins, and every failure counted by kind.
public struct LoadReport: Sendable, Codable {
    public var clients: Int
    public var servers: Int
    public var seconds: Double
    public var logins: Int
    public var loginsPerSecond: Double
    public var p50Milliseconds: Double
    public var p99Milliseconds: Double
    public var maxMilliseconds: Double
    /// Failure kind (e.g. "pass2 HTTP 429 rate_limited", "network error") to count.
    public var errors: [String: Int]
    /// CPU time (user + system) of the `--server-pid` processes over the login phase divided by
    /// the logins (failed ones included: they cost the server too); nil when not asked for.
    public var serverCPUMillisecondsPerLogin: Double?

    init(samples: [LoadSample], elapsed: Double, clients: Int, servers: Int, serverCPUSeconds: Double? = nil) {
        let ok = samples.filter { $0.outcome == nil }.map(\.seconds).sorted()
        self.clients = clients
        self.servers = servers
        seconds = elapsed
        logins = ok.count
        loginsPerSecond = elapsed > 0 ? Double(ok.count) / elapsed : 0
        p50Milliseconds = Self.percentile(ok, 0.50) * 1000
        p99Milliseconds = Self.percentile(ok, 0.99) * 1000
        maxMilliseconds = (ok.last ?? 0) * 1000
        errors = samples.compactMap(\.outcome).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        serverCPUMillisecondsPerLogin = serverCPUSeconds.map { samples.isEmpty ? 0 : $0 * 1000 / Double(samples.count) }
    }

    /// Nearest-rank percentile of sorted values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    public var text: String {
        var lines = [
            String(format: "%d clients on %d server(s), %.1f s: %d logins, %.1f logins/s", clients, servers, seconds, logins, loginsPerSecond),
            String(format: "latency of successful logins: p50 %.1f ms, p99 %.1f ms, max %.1f ms", p50Milliseconds, p99Milliseconds, maxMilliseconds)
        ]
        if let serverCPUMillisecondsPerLogin {
            lines.append(String(format: "server CPU per login: %.3f ms", serverCPUMillisecondsPerLogin))
        }
        if errors.isEmpty {
            lines.append("errors: none")
        } else {
            lines.append("errors: \(errors.values.reduce(0, +))")
            for (kind, count) in errors.sorted(by: { $0.value > $1.value }) { lines.append("  \(count)\t\(kind)") }
        }
        return lines.joined(separator: "\n")
    }
}
