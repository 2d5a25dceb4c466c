import Foundation
import Testing
import ZKPinClient
import ZKPinLoad

/// `zkpin load` against a real `zkpin-server serve` over loopback: a short run whose logins
/// must all succeed. Timing is reported, never asserted. 16 clients register and activate at
/// once from one address, more than any per-address limit of wrong tries allows (issue 29's
/// first confirmation-code fix refused some of them).
@Suite(.serialized, .enabled(if: Binaries.serverAvailable, "the zkpin and zkpin-server executables are not built"))
struct LoadCommandTests {
    @Test func aShortRunLogsInWithoutErrors() async throws {
        let server = try await TestServer(extraArguments: [
            "--curve", "bn254cx", "--registrations-per-address", "100",
            "--pass1-per-address", "1000000", "--pass1-per-identity", "1000000"
        ])
        defer { server.stop() }
        let run = try await runClient([
            "load", "--server", server.base, "--outbox", server.outbox,
            "--clients", "16", "--duration", "3", "--json"
        ])
        #expect(run.status == 0, "\(run.err)")
        let report = try JSONDecoder().decode(LoadReport.self, from: Data(run.out.utf8))
        #expect(report.clients == 16 && report.servers == 1)
        #expect(report.errors.isEmpty, "\(report.errors)")
        // Every client finished at least one whole login.
        #expect(report.logins >= 16)
        #expect(report.p50Milliseconds > 0 && report.p99Milliseconds >= report.p50Milliseconds)
    }

    @Test func withoutEnoughRegistrationsPerAddressItSaysWhatToDo() async throws {
        let server = try await TestServer(extraArguments: ["--curve", "bn254cx", "--registrations-per-address", "2"])
        defer { server.stop() }
        let run = try await runClient(["load", "--server", server.base, "--outbox", server.outbox, "--clients", "3", "--duration", "1"])
        #expect(run.status != 0)
        #expect(run.err.contains("--registrations-per-address"), "\(run.err)")
    }
}
