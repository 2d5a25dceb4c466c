import ArgumentParser
import Foundation
import Logging
import ZKPinMath
import ZKPinMathGMP
import ZKPinProtocol
import ZKPinServer
import ZKPinWire

@main
struct ZKPinServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zkpin-server",
        abstract: "ZKPin relying party and trusted authorities (M-Pin zero-knowledge PIN login).",
        discussion: ServerExitStatus.helpText,
        version: ZKPinVersion.text,
        subcommands: [Serve.self, ConfigCommand.self, DTA.self, Demo.self, Admin.self])

    /// ArgumentParser's default, after checking that this CPU runs the build's field arithmetic.
    static func main() async {
        FieldArithmeticSupport.exitIfUnsupported(program: "zkpin-server")
        GMPFieldInversion.install()  // the fast blinded Fp.inverse
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch is UsageError {
            FileHandle.standardError.write(Data("See '\(UsageError.command) --help'.\n".utf8))
            exit(withError: ExitCode(ServerExitStatus.usage))
        } catch {
            exit(withError: error)
        }
    }
}

func parseCurve(_ text: String) throws -> CurveID {
    guard let curve = CurveID(name: text) else { throw ValidationError("unknown curve \(text); use \(CurveID.names())") }
    return curve
}

/// Where the relying party keeps its state: SQLite in the data folder, or PostgreSQL.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "postgres://USER@HOST:PORT/DATABASE (or postgres://USER@/DATABASE?host=/run/postgresql through the local Unix socket), shared by several instances (default: SQLite in the data folder). Password from PGPASSWORD or --database-password-file.",
            valueName: "URL"))
    var database: String?
    @Option(name: .customLong("database-password-file"), help: "0600 file holding the PostgreSQL password.")
    var databasePasswordFile: String?
}

struct DTA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dta", abstract: "Run D-TA 2 alone.")
    @Option var host = "127.0.0.1"
    @Option var port = 8081
    @Option var data = "./zkpin-dta2"
    @Option var curve = "bls12-381"
    @Option(name: .customLong("key-file"), help: "0600 file with the key shared with the relying party.") var keyFile: String
    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "The relying party's origin (https://login.example.com) whose web app reads the shares in the browser.", valueName: "ORIGIN"))
    var corsOrigin: String?

    func run() async throws {
        var o = DTAOptions(keyFile: keyFile)
        o.host = host; o.port = port; o.dataDirectory = data; o.curve = try parseCurve(curve)
        o.corsOrigin = corsOrigin
        let logger = Logger(label: "zkpin.dta2")
        let dta: DTA2Service
        let opts = o
        umask(0o077)
        if let problem = PortProbe.problem(host: host, port: port) {
            throw ServerExitStatus.fail("cannot listen on \(host):\(port): \(problem)", status: ServerExitStatus.unavailable)
        }
        do { dta = try ZKPinServerApp.makeDTA2(opts, logger: logger) } catch let error as SetupError {
            throw ServerExitStatus.fail(error.description, status: ServerExitStatus.status(for: error))
        } catch { throw ServerExitStatus.fail("\(opts.dataDirectory): \(DataFolder.reason(error))", status: ServerExitStatus.dataFolder) }
        try await ZKPinServerApp.serve(
            router: ZKPinServerApp.dtaRouter(dta, logger: logger, corsOrigin: opts.corsOrigin), host: host, port: port, logger: logger
        ) { port in
            announce("zkpin-server dta listening on http://\(opts.host):\(port) (curve \(opts.curve.rawValue))")
        }
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "serve with demo defaults; prints the page URL and the outbox folder.",
        discussion: """
            The web app (/app) needs a secure context: https, or http at localhost or 127.0.0.1 \
            on the device that opens it. To try it from a phone, forward the phone's localhost \
            to this port over USB, or put a tunnel or a TLS proxy in front of it and give its \
            https URL as --public-url (docs/user.md, "Trying the demo on a phone").
            """)
    @Option(
        help: ArgumentHelp(
            "Address to listen on: 127.0.0.1 (this machine only), a LAN address, or 0.0.0.0 (every address; needs --public-url).", valueName: "HOST"))
    var host = "127.0.0.1"
    @Option var port = ServeOptions().port
    @Option var data = "./zkpin-demo"
    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The URL people open: a tunnel's or TLS proxy's https URL, or http://LAN-ADDRESS:PORT (default http://HOST:PORT).", valueName: "URL"))
    var publicURL: String?
    @Option(
        name: .customLong("client-command"),
        help: ArgumentHelp("The client command the login page shows (tools/demo gives the path of the one it built).", valueName: "PATH"))
    var clientCommand = "zkpin"

    func validate() throws {
        if let publicURL, !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) {
            throw ValidationError("--public-url must start with http:// or https://")
        }
        if publicURL == nil, DemoAddress.isWildcard(host) {
            throw ValidationError(
                "--host \(host) listens on every address but names none for the page and the mails: add --public-url http://ADDRESS:\(port) with the address a phone opens (`ip -brief address` lists this machine's), or an https URL of a tunnel or proxy"
            )
        }
    }

    func run() async throws {
        var o = ServeOptions()
        o.host = host
        o.port = port
        o.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        o.dataDirectory = data
        o.clientCommand = clientCommand
        try await runServe(o, demo: true)
    }
}
