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
        @OptionGroup var location: AdminDataFolder
        func run() async throws {
            let data = try await location.folder()
            let now = Int(Date().timeIntervalSince1970)
            let keys: [SigningKeys.Entry]
            do {
                let before = try SigningKeys.list(dataDirectory: data, now: now).filter { $0.status.hasPrefix("current") }
                _ = try SigningKeys.rotate(dataDirectory: data, now: now)
                keys = try SigningKeys.list(dataDirectory: data, now: now).filter { $0.status.hasPrefix("current") }
                // Every algorithm's key is rotated (ES256 and RS256): each is named, with its file.
                for key in keys {
                    let old = before.first { $0.algorithm == key.algorithm }.map { "; \($0.kid) retired (still published for an hour)" } ?? ""
                    print("new \(key.algorithm) signing key \(key.kid) in \(Self.fileName(key.algorithm))\(old)")
                }
            } catch let error as SetupError { throw ServerExitStatus.fail(error.description, status: ServerExitStatus.usage) }
            let files = keys.map { "oidc-\($0.algorithm.lowercased())*.key" }.joined(separator: " and ")
            print("servers on this data folder pick them up at once; copy the folder's \(files) files to instances that use a copy")
        }

        /// The file of an algorithm's current key in the data folder.
        static func fileName(_ algorithm: String) -> String { "oidc-\(algorithm.lowercased()).key" }
    }

    struct List: AsyncParsableCommand {
        @OptionGroup var location: AdminDataFolder
        func run() async throws {
            let entries = try SigningKeys.list(dataDirectory: try await location.folder(), now: Int(Date().timeIntervalSince1970))
            let table = AdminTable(header: ["KEY ID", "ALGORITHM", "STATUS"], rows: entries.map { [$0.kid, $0.algorithm, $0.status] })
            for line in table.lines { print(line) }
        }
    }
}
