import ArgumentParser
import Foundation
import Logging
import ZKPinServer

/// `zkpin-server admin ...`: the operator's commands on a relying party's store.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look at and change identities.",
        subcommands: [Users.self, Revoke.self, Unblock.self, Audit.self, Clients.self, Keys.self, Hooks.self])
}

/// The server's data folder for an admin command: `--data`, else what the server itself
/// reads (ZKPIN_DATA, then the `--config` file or ZKPIN_CONFIG, else the installed server's
/// /etc/zkpin/zkpin.json when there is one), else the default.
struct AdminDataFolder: ParsableArguments {
    /// The config file of an installed server (the Debian package's, install.sh's).
    static let installedConfig = "/etc/zkpin/zkpin.json"

    @Option(
        help: ArgumentHelp(
            "The server's config file (also ZKPIN_CONFIG; default /etc/zkpin/zkpin.json when it exists): its data, database and database-password-file settings are used unless given as flags.",
            valueName: "FILE"))
    var config: String?

    /// The config file named by --config or ZKPIN_CONFIG, else the installed one if present.
    var configFile: String? {
        if let config { return config }
        if let named = ProcessInfo.processInfo.environment[ServeConfiguration.configFileVariable], !named.isEmpty { return named }
        return FileManager.default.fileExists(atPath: Self.installedConfig) ? Self.installedConfig : nil
    }
    @Option(
        help: ArgumentHelp(
            "The server's data folder (its zkpin.sqlite unless --database is given; default: from --config, else ./zkpin-data).",
            valueName: "DIR"))
    var data: String?

    /// The serve settings these flags, the environment and the config file give.
    func settings(_ flags: [String: String] = [:]) async throws -> ServeConfiguration {
        var given = flags
        if let data { given["data"] = data }
        do {
            return try await ServeConfiguration.resolve(
                flags: given, configFile: configFile, environment: ProcessInfo.processInfo.environment)
        } catch { throw ServerExitStatus.fail(error) }
    }

    func folder() async throws -> String { try await settings().text("data") ?? "./zkpin-data" }
}

/// The store every admin subcommand works on: SQLite in the data folder, or PostgreSQL.
struct AdminStorage: ParsableArguments {
    @OptionGroup var location: AdminDataFolder
    @OptionGroup var database: DatabaseOptions

    /// The config file named with --config or ZKPIN_CONFIG, else the installed one.
    var config: String? { location.configFile }

    /// Opens the existing store; a missing one is an error (an admin command never creates one).
    func open() async throws -> Store {
        var flags: [String: String] = [:]
        flags["database"] = database.database
        flags["database-password-file"] = database.databasePasswordFile
        let settings = try await location.settings(flags)
        do {
            return try await ZKPinServerApp.openStore(
                dataDirectory: settings.text("data") ?? "./zkpin-data", database: settings.text("database"),
                passwordFile: settings.text("database-password-file"), mustExist: true,
                logger: Logger(label: "zkpin.admin"))
        } catch let error as SetupError { throw ServerExitStatus.fail(error.description, status: ServerExitStatus.status(for: error)) }
    }
}

/// Which of a person's identities a revoke or unblock touches: all, or one device's.
struct IdentityChoice: ParsableArguments {
    @Argument(help: "The person's e-mail address (any case).") var email: String
    @Option(help: ArgumentHelp("Only the identities registered from this device name (as `admin users` shows it).", valueName: "NAME"))
    var device: String?
    @Option(
        name: .customLong("mpin-id"),
        help: ArgumentHelp("Only this identity: its mpinId, or the part that `admin users` shows (the start of its salt).", valueName: "HEX"))
    var mpinId: String?

    /// Stored addresses are normalised (NFC, lower case); so is what the administrator types.
    /// A shortened `--mpin-id` (the start of its salt, as `admin users` prints it, or the start
    /// of the mpinId) is completed from the person's identities when exactly one fits.
    func selection(in store: Store) async throws -> IdentitySelection {
        guard var id = mpinId?.trimmingCharacters(in: CharacterSet(charactersIn: " …")).lowercased() else {
            return IdentitySelection(userId: folded, device: device, mpinId: nil)
        }
        let matching = try await store.identities().filter {
            EmailAddress.folded($0.userId) == folded && ($0.mpinId.hasPrefix(id) || MPinSalt.of($0.mpinId)?.hasPrefix(id) == true)
        }
        if matching.count > 1 && !matching.contains(where: { $0.mpinId == id }) {
            throw ServerExitStatus.fail(
                "--mpin-id \(id) fits \(matching.count) identities of \(email); give more of it (admin users --json shows it whole)",
                status: ServerExitStatus.usage)
        }
        if matching.count == 1 { id = matching[0].mpinId }
        return IdentitySelection(userId: folded, device: device, mpinId: id)
    }
    var folded: String { EmailAddress.folded(email) }

    /// For messages and the audit row: "kim@example.com (device phone)".
    var described: String {
        // As `admin users` shows it: the start of the salt, whether the whole mpinId or that part was given.
        let given = mpinId?.trimmingCharacters(in: CharacterSet(charactersIn: " …"))
        let shown = given.map { MPinSalt.of($0) == nil ? $0 + "…" : AdminTable.shortened($0) }
        return email + (device.map { " (device \($0))" } ?? "") + (shown.map { " (mpinId \($0))" } ?? "")
    }

    var auditDetail: String { (device.map { ", device=\($0)" } ?? "") }
}
