import ArgumentParser
import Foundation
import ZKPinServer

/// `zkpin-server config check [serve's options]`: the effective settings, where each came
/// from, secrets masked; exits 78 (64 for a bad flag) when they cannot work.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Look at the serve settings.", subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective serve settings and where each came from (flag, environment, file, default), secrets masked.",
            discussion: ServerExitStatus.helpText)

        @OptionGroup var flags: ServeFlags

        func run() async throws {
            let configuration: ServeConfiguration
            do {
                configuration = try await ServeConfiguration.resolve(
                    flags: flags.given, configFile: flags.config,
                    environment: ProcessInfo.processInfo.environment)
            } catch { throw ServerExitStatus.fail(error) }
            for line in SettingsReport.lines(configuration) { print(line) }
            let options: ServeOptions
            do { options = try configuration.options() } catch { throw ServerExitStatus.fail(error) }
            // The files the settings name, the data folder and the outbox: what `serve` checks
            // before it writes anything.
            do { try ZKPinServerApp.preflight(options) } catch {
                throw ServerExitStatus.fail(error.description, status: ServerExitStatus.status(for: error))
            }
            for warning in configuration.warnings { print("Warning: " + warning) }
            print("The settings are usable.")
        }
    }
}
