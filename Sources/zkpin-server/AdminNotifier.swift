import Foundation
import Logging
import ZKPinServer

/// `admin revoke --notify-user`: mails the person with the server's own mail settings (the
/// config file and ZKPIN_* variables that `serve` reads), so the mail comes from the same
/// sender and relay as the activation mails.
struct AdminNotifier {
    let mailer: any Mailer
    let options: ServeOptions

    init(configFile: String?, dataDirectory: String) async throws {
        do {
            var flags: [String: String] = [:]
            flags["data"] = dataDirectory
            options = try await ServeConfiguration.resolve(
                flags: flags, configFile: configFile,
                environment: ProcessInfo.processInfo.environment
            ).options()
        } catch { throw ServerExitStatus.fail(error) }
        do { mailer = try ZKPinServerApp.makeMailer(options, logger: Logger(label: "zkpin.admin")) } catch {
            throw ServerExitStatus.fail("the mail settings cannot be used: \(error)", status: ServerExitStatus.configuration)
        }
    }

    /// A failed mail is reported, not fatal: the revocation has happened either way.
    func revoked(userId: String, devices: [String]) async {
        let mail = AccountNotice.revoked(
            userId: userId, devices: devices, serviceName: options.serviceName,
            publicURL: options.publicURL ?? "http://\(options.host):\(options.port)", from: options.mailFrom)
        do {
            try await mailer.send(mail)
            print("mailed \(userId)")
        } catch {
            FileHandle.standardError.write(Data("zkpin-server: the mail to \(userId) could not be sent: \(error)\n".utf8))
        }
    }
}
