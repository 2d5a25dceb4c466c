import Logging
import PostgresNIO
import Synchronization

/// Brings a `PostgresDriver` back within about a second of the database's return after an
/// outage. postgres-nio's pool retries with a backoff that grows to a minute, so after a long
/// outage the first requests could wait 15 s or more; instead, once a call fails for want of
/// the database, a watcher tries a plain connection every second and, when one succeeds,
/// gives the driver a fresh pool. While the watch knows the database is down, calls fail at
/// once (503) rather than each waiting out its deadline.
final class PostgresRecovery: Sendable {
    let location: PostgresLocation
    let logger: Logger
    let watching = Mutex(false)
    /// Set once the watch found the pool unable to answer, cleared when a fresh pool is in
    /// place: meanwhile calls fail at once instead of waiting out their deadline.
    let down = Atomic(false)
    var isDown: Bool { down.load(ordering: .acquiring) }

    init(location: PostgresLocation, logger: Logger) {
        self.location = location
        self.logger = logger
    }

    /// A call found the database unavailable: starts the watch unless one is running.
    func outage(_ driver: PostgresDriver) {
        let start = watching.withLock { running in
            if running { return false }
            running = true
            return true
        }
        guard start else { return }
        Task { [weak driver] in
            defer { self.watching.withLock { $0 = false } }
            // A passing fault (one slow statement) leaves the pool as it is.
            guard let pool = driver, await !pool.poolAnswers() else { return }
            self.down.store(true, ordering: .releasing)
            self.logger.error("database unavailable: answering 503 until it is back", metadata: ["database": "\(self.location.display)"])
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let driver else { return }
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
    func answers() async -> Bool {
        var configuration = location.connectionConfiguration
        configuration.options.connectTimeout = .seconds(2)
        let (config, logger) = (configuration, logger)
        do {
            return try await Deadline.run(seconds: 2) {
                let connection = try await PostgresConnection.connect(configuration: config, id: 1, logger: logger)
                defer { Task { try? await connection.close() } }
                _ = try await PostgresDriver.collect(try await connection.query("SELECT 1", logger: logger))
                return true
            }
        } catch {
            return false
        }
    }
}
