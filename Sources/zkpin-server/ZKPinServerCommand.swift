import ArgumentParser
import Foundation
import Logging
import ZKPinMath
import ZKPinProtocol
import ZKPinServer

@main
struct ZKPinServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zkpin-server",
        abstract: "ZKPin relying party and trusted authorities (M-Pin zero-knowledge PIN login).",
        subcommands: [Serve.self, DTA.self, Demo.self, Admin.self])

    /// ArgumentParser's default, after checking that this CPU runs the build's field arithmetic.
    static func main() async {
        FieldArithmeticSupport.exitIfUnsupported(program: "zkpin-server")
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

func parseCurve(_ text: String) throws -> CurveID {
    guard let curve = CurveID(name: text) else { throw ValidationError("unknown curve \(text); use bls12-381 or bn254cx") }
    return curve
}

/// Logs go to stderr; the bound URL line goes to stdout so scripts can read it.
func announce(_ text: String) {
    // Unbuffered, so a parent process sees the line at once.
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Where the relying party keeps its state: SQLite in the data folder, or PostgreSQL.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp("postgres://USER@HOST:PORT/DATABASE, shared by several instances (default: SQLite in the data folder). Password from PGPASSWORD or --database-password-file.", valueName: "URL"))
    var database: String?
    @Option(name: .customLong("database-password-file"), help: "0600 file holding the PostgreSQL password.")
    var databasePasswordFile: String?
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the relying party and D-TA 1 (and D-TA 2 unless --dta2).")

    @Option var host = "127.0.0.1"
    @Option(help: "Port; 0 picks a free one (printed; needs --public-url).") var port = 8080
    @Option(help: "Data folder (database, keys, outbox).") var data = "./zkpin-data"
    @Option(help: "bls12-381 or bn254cx; fixed at first start.") var curve: String?
    @Option(name: .customLong("public-url"), help: "The URL people use (default http://host:port).") var publicURL: String?
    @Option(help: "Folder for activation mails as .eml files (default DATA/outbox).") var outbox: String?
    @Option(help: "smtp://user@host:port; password from ZKPIN_SMTP_PASSWORD or --smtp-password-file.") var smtp: String?
    @Option(name: .customLong("smtp-password-file")) var smtpPasswordFile: String?
    @Option(name: .customLong("smtp-ca-file"), help: "Extra CA (PEM) for the SMTP server.") var smtpCAFile: String?
    @Option(help: "URL of a separate D-TA 2 (zkpin-server dta).") var dta2: String?
    @Option(name: .customLong("dta2-key-file"), help: "0600 file with the key shared with D-TA 2.") var dta2KeyFile: String?
    @Option(help: "Time permits: on or off.") var permits = "off"
    @Option(name: .customLong("max-attempts")) var maxAttempts = 3
    @Option(name: .customLong("access-code-ttl")) var accessCodeTTL = 120
    @Option(name: .customLong("trusted-proxy"), help: "Address of a proxy whose X-Forwarded-For is believed.") var trustedProxy: String?
    @Option(name: .customLong("registrations-per-address"), help: "Registrations per client address and hour (raise it to register many load-test identities).")
    var registrationsPerAddress = 30
    @Option(name: .customLong("verification-batch"), help: ArgumentHelp(
        "The most pass-2 logins verified together when they arrive at once (one pairing check for the batch); 1 verifies each alone.",
        valueName: "N"))
    var verificationBatch = 256
    @OptionGroup var storage: DatabaseOptions

    func options() throws -> ServeOptions {
        var o = ServeOptions()
        o.host = host; o.port = port; o.dataDirectory = data
        o.database = storage.database; o.databasePasswordFile = storage.databasePasswordFile
        guard registrationsPerAddress >= 1 else { throw ValidationError("--registrations-per-address is at least 1") }
        o.registrationsPerAddress = registrationsPerAddress
        guard (1...4096).contains(verificationBatch) else { throw ValidationError("--verification-batch is 1...4096") }
        o.verificationBatch = verificationBatch
        o.curve = try curve.map(parseCurve)
        o.publicURL = publicURL; o.outbox = outbox; o.smtp = smtp; o.smtpPasswordFile = smtpPasswordFile
        o.smtpCAFile = smtpCAFile; o.dta2URL = dta2; o.dta2KeyFile = dta2KeyFile
        switch permits.lowercased() {
        case "on": o.permits = true
        case "off": o.permits = false
        default: throw ValidationError("--permits takes on or off")
        }
        guard (1...100).contains(maxAttempts) else { throw ValidationError("--max-attempts is 1...100") }
        guard (10...3600).contains(accessCodeTTL) else { throw ValidationError("--access-code-ttl is 10...3600 seconds") }
        o.maxAttempts = maxAttempts; o.accessCodeTTL = accessCodeTTL; o.trustedProxy = trustedProxy
        return o
    }

    func run() async throws { try await runServe(try options(), demo: false) }
}

func runServe(_ options: ServeOptions, demo: Bool) async throws {
    let logger = Logger(label: "zkpin")
    let rp: RelyingParty
    let dta2: DTA2Service?
    do { (rp, dta2) = try await ZKPinServerApp.makeRelyingParty(options, logger: logger) }
    catch let error as SetupError { throw ValidationError(error.description) }
    if dta2 != nil {
        announce("NOTE: D-TA 2 runs in this process: a demo/development setup, not for production (see rps-api.md, Trust).")
    }
    let router = try ZKPinServerApp.router(rp: rp, dta2: dta2, logger: logger)
    try await ZKPinServerApp.serve(router: router, host: options.host, port: options.port, logger: logger) { port in
        let url = options.publicURL ?? "http://\(options.host):\(port)"
        announce("zkpin-server listening on http://\(options.host):\(port) (curve \(rp.config.curve.rawValue))")
        if demo {
            announce("Open \(url)/ to sign in.")
            if options.smtp == nil {
                announce("Activation mails land in \(options.outbox ?? (options.dataDirectory as NSString).appendingPathComponent("outbox"))")
            }
        }
    }
}

struct DTA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dta", abstract: "Run D-TA 2 alone.")
    @Option var host = "127.0.0.1"
    @Option var port = 8081
    @Option var data = "./zkpin-dta2"
    @Option var curve = "bls12-381"
    @Option(name: .customLong("key-file"), help: "0600 file with the key shared with the relying party.") var keyFile: String

    func run() async throws {
        var o = DTAOptions(keyFile: keyFile)
        o.host = host; o.port = port; o.dataDirectory = data; o.curve = try parseCurve(curve)
        let logger = Logger(label: "zkpin.dta2")
        let dta: DTA2Service
        let opts = o
        do { dta = try ZKPinServerApp.makeDTA2(opts, logger: logger) } catch { throw ValidationError("\(error)") }
        try await ZKPinServerApp.serve(router: ZKPinServerApp.dtaRouter(dta, logger: logger), host: host, port: port, logger: logger) { port in
            announce("zkpin-server dta listening on http://\(opts.host):\(port) (curve \(opts.curve.rawValue))")
        }
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "serve with demo defaults; prints the page URL and the outbox folder.")
    @Option var port = 8080
    @Option var data = "./zkpin-demo"

    func run() async throws {
        var o = ServeOptions()
        o.port = port
        o.dataDirectory = data
        try await runServe(o, demo: true)
    }
}

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Look at and change identities.",
                                                    subcommands: [Users.self, Revoke.self, Audit.self, Clients.self, Keys.self])

    struct Users: AsyncParsableCommand {
        @Option var data = "./zkpin-data"
        @OptionGroup var storage: DatabaseOptions
        func run() async throws {
            let store = try await openStore(data, storage)
            for i in try await store.identities() {
                print("\(i.userId)\t\(i.state.rawValue)\tfailed=\(i.failedAttempts)\tdevice=\(i.device)\t\(i.mpinId.prefix(16))…")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        @Argument var email: String
        @Option var data = "./zkpin-data"
        @OptionGroup var storage: DatabaseOptions
        func run() async throws {
            let store = try await openStore(data, storage)
            let n = try await store.revoke(userId: email)
            try await store.appendAudit(AuditEvent(time: Int(Date().timeIntervalSince1970), kind: "revoke", userId: email, detail: "admin, \(n) identities"))
            print("revoked \(n) identities of \(email)")
            if n == 0 { throw ExitCode(1) }
        }
    }

    struct Audit: AsyncParsableCommand {
        @Option var data = "./zkpin-data"
        @Option var limit = 100
        @OptionGroup var storage: DatabaseOptions
        func run() async throws {
            let store = try await openStore(data, storage)
            let f = ISO8601DateFormatter()
            for e in try await store.auditLog(limit: limit) {
                print("\(f.string(from: Date(timeIntervalSince1970: TimeInterval(e.time))))\t\(e.kind)\t\(e.userId ?? "-")\t\(e.address ?? "-")\t\(e.detail)")
            }
        }
    }
}

func openStore(_ data: String, _ storage: DatabaseOptions) async throws -> any Store {
    do {
        return try await ZKPinServerApp.openStore(dataDirectory: data, database: storage.database,
                                                  passwordFile: storage.databasePasswordFile, mustExist: true,
                                                  logger: Logger(label: "zkpin.admin"))
    } catch let error as SetupError { throw ValidationError(error.description) }
}
