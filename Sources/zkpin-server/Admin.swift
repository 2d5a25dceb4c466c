import ArgumentParser
import Foundation
import Logging
import ZKPinServer

/// `zkpin-server admin ...`: the operator's commands on a relying party's store.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look at and change identities.",
        subcommands: [Users.self, Revoke.self, Unblock.self, Audit.self, Clients.self, Keys.self])
}

/// The store every admin subcommand works on: SQLite in the data folder, or PostgreSQL.
struct AdminStorage: ParsableArguments {
    @Option(help: ArgumentHelp("The server's data folder (its zkpin.sqlite unless --database is given).", valueName: "DIR"))
    var data = "./zkpin-data"
    @OptionGroup var database: DatabaseOptions

    /// Opens the existing store; a missing one is an error (an admin command never creates one).
    func open() async throws -> Store {
        do {
            return try await ZKPinServerApp.openStore(
                dataDirectory: data, database: database.database,
                passwordFile: database.databasePasswordFile, mustExist: true,
                logger: Logger(label: "zkpin.admin"))
        } catch let error as SetupError { throw ServerExitStatus.fail(error.description, status: ServerExitStatus.status(for: error)) }
    }
}

/// Which of a person's identities a revoke or unblock touches: all, or one device's.
struct IdentityChoice: ParsableArguments {
    @Argument(help: "The person's e-mail address (any case).") var email: String
    @Option(help: ArgumentHelp("Only the identities registered from this device name (as `admin users` shows it).", valueName: "NAME"))
    var device: String?
    @Option(name: .customLong("mpin-id"), help: ArgumentHelp("Only this identity (the MPIN ID column of `admin users`).", valueName: "HEX"))
    var mpinId: String?

    /// Stored addresses are normalised (NFC, lower case); so is what the administrator types.
    var selection: IdentitySelection { IdentitySelection(userId: folded, device: device, mpinId: mpinId) }
    var folded: String { EmailAddress.folded(email) }

    /// For messages and the audit row: "kim@example.com (device phone)".
    var described: String {
        email + (device.map { " (device \($0))" } ?? "") + (mpinId.map { " (mpinId \($0.prefix(24))…)" } ?? "")
    }

    var auditDetail: String { (device.map { ", device=\($0)" } ?? "") }
}
