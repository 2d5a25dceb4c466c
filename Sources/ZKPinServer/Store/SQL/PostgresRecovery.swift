import Logging
import PostgresNIO
import Synchronization

/// Finds a database outage within about two seconds and brings a `PostgresDriver` back within
/// about a second of the database's return. A call that fails for want of the database, or
/// still waits after two seconds, has a plain connection tried: when that fails too the
/// database is down, and every call fails at once (503) until a plain connection opens again;
/// then the driver gets a fresh pool, since postgres-nio's own reconnection backs off to a
/// minute between tries. A slow call on a database that answers (a busy machine) changes
/// nothing: a probe that is only slow (no refusal) is tried once more with more time before
/// the database is called down.
final class PostgresRecovery: Sendable {
    let location: PostgresLocation
    let logger: Logger
    let watching = Mutex(false)
    /// The driver it brings back (set once the driver exists; weak: the driver owns this).
    private let driver = Mutex<WeakDriver>(WeakDriver())
    private struct WeakDriver { weak var value: PostgresDriver? }

    func attach(_ driver: PostgresDriver) { self.driver.withLock { $0.value = driver } }
    /// Set while the database is known to be down, cleared when a fresh pool is in place.
    let down = Atomic(false)
    var isDown: Bool { down.load(ordering: .acquiring) }

    init(location: PostgresLocation, logger: Logger) {
        self.location = location
        self.logger = logger
    }

    /// A call failed for want of the database, or is slow: starts the watch unless one runs.
    func suspect() {
        let start = watching.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard start else { return }
        Task {
            defer { self.watching.withLock { $0 = false } }
            // The database answers a new connection: a passing fault or a busy machine.
            switch await self.probe(seconds: 2) {
            case .answered: return
            case .refused: break
            case .timedOut:
                // Slow, not refused: a busy machine opens connections slowly too.
                guard await self.probe(seconds: 10) != .answered else { return }
            }
            self.down.store(true, ordering: .releasing)
            self.logger.error("database unavailable: answering 503 until it is back", metadata: ["database": "\(self.location.display)"])
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let driver = self.driver.withLock({ $0.value }) else { return }
                if await self.answers() {
                    driver.replacePool()
                    self.down.store(false, ordering: .releasing)
                    self.logger.notice("database available again", metadata: ["database": "\(self.location.display)"])
                    return
                }
            }
        }
    }

    /// Whether a plain connection opens and answers `SELECT 1` within two seconds.
    func answers() async -> Bool { await probe(seconds: 2) == .answered }

    enum ProbeResult { case answered, refused, timedOut }

    /// postgres-nio's own connect deadline (a wait, not a refusal).
    static func isConnectTimeout(_ error: any Error) -> Bool {
        guard let underlying = (error as? PSQLError)?.underlying else { return false }
        if case .connectTimeout = underlying as? ChannelError { return true }
        return false
    }

    /// A plain connection and `SELECT 1` within `seconds`: answered (also PostgreSQL's own
    /// refusal), refused (the connection refused or closed), or no answer in time.
    func probe(seconds: Double) async -> ProbeResult {
        var configuration = location.connectionConfiguration
        configuration.options.connectTimeout = .milliseconds(Int64(seconds * 1000))
        let (config, logger) = (configuration, logger)
        do {
            return try await Deadline.run(seconds: seconds) {
                let connection = try await PostgresConnection.connect(configuration: config, id: 1, logger: logger)
                defer { Task { try? await connection.close() } }
                _ = try await PostgresDriver.collect(try await connection.query("SELECT 1", logger: logger))
                return .answered
            }
        } catch is DeadlineExceeded {
            return .timedOut
        } catch {
            // PostgreSQL's own refusal (starting up, too many clients) is an answer: the server
            // is there, and the pool's connections may well be serving.
            if PostgresDriver.isServerAnswer(error) { return .answered }
            return Self.isConnectTimeout(error) ? .timedOut : .refused
        }
    }
}
