import Logging

/// The store as the services use it: every storage failure becomes `APIError.storageUnavailable`
/// (503 with Retry-After) and one log line, in one place, so no call site can turn a database
/// outage into an answer that blames the person.
struct StorageGateway: Sendable {
    let store: Store
    let logger: Logger

    /// Runs one store operation; `what` names it in the log.
    func callAsFunction<T>(_ what: StaticString, _ operation: (Store) async throws -> T) async throws(APIError) -> T {
        do { return try await operation(store) } catch {
            logger.error("storage failed", metadata: ["operation": "\(what)", "error": "\(error)"])
            throw .storageUnavailable
        }
    }
}
