import ArgumentParser
import Foundation
import Logging
import Synchronization
import ZKPinServer

/// `zkpin-server serve`: settings from flags, `ZKPIN_*` variables, `--config FILE`, defaults.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the relying party and D-TA 1 (and D-TA 2 unless --dta2).",
        discussion: """
            Every setting can also come from the environment (ZKPIN_PORT, ZKPIN_PUBLIC_URL, ...) or \
            from a JSON file given with --config FILE (or ZKPIN_CONFIG); a flag beats the \
            environment, which beats the file, which beats the default. `zkpin-server config check` \
            shows the effective settings and where each came from.

            \(ServerExitStatus.helpText)
            """)

    @OptionGroup var flags: ServeFlags

    func run() async throws {
        let options = try await EffectiveSettings.load(flags)
        LogSetup.bootstrap(level: options.logLevel, format: options.logFormat)
        try await runServe(options, demo: false)
    }
}

/// Resolves the settings of `serve`, turning a bad one into its exit status.
enum EffectiveSettings {
    static func load(_ flags: ServeFlags) async throws -> ServeOptions {
        do {
            let configuration = try await ServeConfiguration.resolve(
                flags: flags.given, configFile: flags.config,
                environment: ProcessInfo.processInfo.environment)
            return try configuration.options()
        } catch {
            throw ServerExitStatus.fail(error)
        }
    }
}

/// Binds, opens the data folder and serves until stopped. Nothing is written to the data folder
/// before the port is known to be free.
func runServe(_ options: ServeOptions, demo: Bool) async throws {
    // Every file the server makes (database, journal, keys, mails) is 0600, every folder 0700.
    umask(0o077)
    // The same checks as `config check`, before anything is written.
    do { try ZKPinServerApp.preflight(options) } catch {
        throw ServerExitStatus.fail(error.description, status: ServerExitStatus.status(for: error))
    }
    if let problem = PortProbe.problem(host: options.host, port: options.port) {
        throw ServerExitStatus.fail("cannot listen on \(options.host):\(options.port): \(problem)", status: ServerExitStatus.unavailable)
    }
    let logger = Logger(label: "zkpin")
    let rp: RelyingParty
    let dta2: DTA2Service?
    do { (rp, dta2) = try await ZKPinServerApp.makeRelyingParty(options, logger: logger) } catch let error as SetupError {
        throw ServerExitStatus.fail(error.description, status: ServerExitStatus.status(for: error))
    } catch { throw ServerExitStatus.fail("the server could not start (\(String(describing: type(of: error))))", status: ServerExitStatus.software) }
    if dta2 != nil {
        announce("NOTE: D-TA 2 runs in this process: a demo/development setup, not for production (docs/operator.md, \"D-TA 2 on its own machine\").")
    }
    let assembly: ServerAssembly
    do { assembly = try ZKPinServerApp.assemble(rp: rp, dta2: dta2, options: options, logger: logger) } catch let error as SetupError {
        throw ServerExitStatus.fail(error.description, status: ServerExitStatus.status(for: error))
    }
    let router = assembly.router
    let listening = ListeningFlag()
    // Expired one-time rows are deleted every minute, and push messages sent, while the server runs.
    let background = Task { [work = assembly.background] in await work.run() }
    defer { background.cancel() }
    do {
        try await ZKPinServerApp.serve(
            router: router, host: options.host, port: options.port, logger: logger,
            limits: ServerLimits(options)
        ) { port in
            listening.isSet.store(true, ordering: .relaxed)
            let url = options.publicURL ?? "http://\(options.host):\(port)"
            announce("zkpin-server listening on http://\(options.host):\(port) (curve \(rp.config.curve.rawValue))")
            if demo {
                announce("Open \(url)/ to sign in.")
                for line in DemoAddress.notes(publicURL: url) { announce(line) }
                if options.smtp == nil {
                    announce("Activation mails land in \(options.outbox ?? (options.dataDirectory as NSString).appendingPathComponent("outbox"))")
                }
            }
        }
    } catch  where !listening.isSet.load(ordering: .relaxed) {
        // The probe passed but the bind failed: another process took the port meanwhile.
        throw ServerExitStatus.fail(
            "cannot listen on \(options.host):\(options.port) (\(String(describing: type(of: error))))",
            status: ServerExitStatus.unavailable)
    }
}

/// Set once the server listens: an error before that is a bind error.
final class ListeningFlag: Sendable {
    let isSet = Atomic<Bool>(false)
}

/// Logs go to stderr; the bound URL line goes to stdout so scripts can read it. With
/// `--log-format json` each line is a JSON object like the log's, for the same collector.
func announce(_ text: String) {
    let line = LogSetup.json.load(ordering: .relaxed) ? JSONLogHandler.line(level: .notice, label: "zkpin", message: text) : text + "\n"
    // Unbuffered, so a parent process sees the line at once.
    FileHandle.standardOutput.write(Data(line.utf8))
}
