import ArgumentParser
import Foundation
import ZKPinClient
import ZKPinLoad

/// `zkpin load`: a load driver. Registers N throwaway identities (activating them from the
/// server's outbox folder), then has each log in again and again for a fixed time.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load-test servers: N identities logging in concurrently for a fixed time.",
        discussion: """
            The identities are registered first through the first --server, which must mail to an
            outbox folder on this machine (its default) and allow that many registrations from one
            address: start it with --registrations-per-address N (and, for many logins a minute, --pass1-per-address and --pass1-per-identity). Reports logins per second,
            latency percentiles of the successful logins (p50, p99) and every error by kind; exits
            with 1 when any login failed. Without time permits each client repeats its identity's
            pass 1 (the same random x every login) so that only pass 2 costs the driver; that gives
            the identity's secret away to anyone who sees two logins, so these throwaway identities
            are for load tests only.
            """)

    @Option(
        name: .customLong("server"), help: ArgumentHelp("A server URL; repeat it to spread the clients over several instances.", valueName: "URL"))
    var servers: [String] = []
    @Option(help: ArgumentHelp("The first server's outbox folder (its --outbox, default DATA/outbox).", valueName: "DIR"))
    var outbox: String
    @Option(help: "Concurrent clients, each with its own identity.") var clients = 10
    @Option(help: "Seconds of logins.") var duration: Double = 10
    @Option(
        name: .customLong("server-pid"),
        help: ArgumentHelp(
            "A server process on this machine: its CPU time over the login phase is reported per login (Linux /proc). Repeatable.",
            valueName: "PID"))
    var serverPIDs: [Int32] = []
    @Option(
        help: ArgumentHelp(
            "HTTP requests per login: 2 (pass 1, then pass 2 that finishes the login, ZKPin's `complete`) or 3 (pass 1, pass 2, /rps/authenticate, as M-Pin clients do).",
            valueName: "2|3"))
    var requests = 2
    @Flag(name: .long, help: "Print the report as JSON on standard output.") var json = false

    func validate() throws {
        guard !servers.isEmpty else { throw ValidationError("give at least one --server URL") }
        guard (1...10_000).contains(clients) else { throw ValidationError("--clients is 1...10000") }
        guard requests == 2 || requests == 3 else { throw ValidationError("--requests is 2 or 3") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration is more than 0 and at most 3600 seconds") }
        for pid in serverPIDs where !FileManager.default.fileExists(atPath: "/proc/\(pid)/stat") {
            throw ValidationError("--server-pid \(pid): no such process on this machine (or no /proc)")
        }
    }

    func run() async throws {
        var failed = false
        try await ClientOutput.run(json: json) { () async throws(ClientError) in
            var normalized: [String] = []
            for server in servers { normalized.append(try ServerURL.normalize(server)) }
            var options = LoadDriver.Options(servers: normalized, outbox: outbox)
            options.clients = clients
            options.duration = duration
            options.serverPIDs = serverPIDs
            options.completeInPass2 = requests == 2
            let driver = LoadDriver(options: options)
            let outcome: Result<LoadReport, ClientError>
            do throws(ClientError) {
                ClientOutput.note("registering \(clients) identities through \(normalized[0]) ...")
                let identities = try await driver.registerIdentities()
                ClientOutput.note(String(format: "logging in with %d clients for %.0f s ...", clients, duration))
                outcome = .success(try await driver.run(identities))
            } catch {
                outcome = .failure(error)
            }
            await driver.shutdown()
            let report = try outcome.get()
            if json {
                ClientOutput.json(encoded: (try? JSONEncoder().encode(report)) ?? Data("{}".utf8))
            } else {
                ClientOutput.info(report.text)
            }
            failed = !report.errors.isEmpty || report.logins == 0
        }
        // The report is out; the exit status tells a script that some logins failed.
        if failed { throw ExitCode(1) }
    }
}
