import ArgumentParser
import Foundation
import ZKPinServer

/// `zkpin-server admin keys rotate|list`: the OpenID Connect provider's ID-token signing keys.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The ID-token signing keys of the OpenID Connect provider.",
        subcommands: [Rotate.self, List.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign with a new key from now on; the old one stays in the JWKS until its tokens have expired.")
        @Option var data = "./zkpin-data"
        func run() async throws {
            do {
                let (old, new) = try SigningKeys.rotate(dataDirectory: data, now: Int(Date().timeIntervalSince1970))
                print("new signing key \(new)" + (old.map { "; \($0) retired (still published for an hour)" } ?? ""))
                print("servers on this data folder pick it up at once; copy the folder's oidc-es256*.key files to instances that use a copy")
            } catch let error as SetupError { throw ValidationError(error.description) }
        }
    }

    struct List: AsyncParsableCommand {
        @Option var data = "./zkpin-data"
        func run() async throws {
            for entry in try SigningKeys.list(dataDirectory: data, now: Int(Date().timeIntervalSince1970)) {
                print("\(entry.kid)\t\(entry.algorithm)\t\(entry.status)")
            }
        }
    }
}
