import Logging
import Testing
import ZKPinTestSupport

@testable import ZKPinServer

/// The outage watch tells a database that refuses from one that is only slow to answer: a
/// refusal calls the database down at once, a silent wait (a busy machine) gets a second,
/// longer look first.
@Suite struct PostgresProbeTests {
    @Test func aClosedPortIsARefusal() async throws {
        let socket = try #require(LoopbackSocket())  // bound, not listening: connections are refused
        defer { socket.close() }
        let recovery = try PostgresRecovery(
            location: PostgresLocation(url: "postgres://zkpin@127.0.0.1:\(socket.port)/zkpin"), logger: Logger(label: "test"))
        // A refusal is told by its error, not by its time; the deadline is only long so that a
        // test run that keeps every thread busy for a while cannot outlast it.
        let result = await recovery.probe(seconds: 120)
        #expect(result == .refused, "\(result)")
    }

    @Test func aListenerThatNeverAnswersIsAWaitNotARefusal() async throws {
        let socket = try #require(LoopbackSocket(listeningWithBacklog: 4))
        defer { socket.close() }
        let recovery = try PostgresRecovery(
            location: PostgresLocation(url: "postgres://zkpin@127.0.0.1:\(socket.port)/zkpin"), logger: Logger(label: "test"))
        let result = await recovery.probe(seconds: 0.5)
        #expect(result == .timedOut, "\(result)")
    }
}
