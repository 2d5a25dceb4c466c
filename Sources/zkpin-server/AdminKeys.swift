import ArgumentParser
import Foundation
import ZKPinServer

/// `zkpin-server admin keys rotate|list`: the OpenID Connect provider's ID-token signing keys;
/// `admin keys vapid [--rotate]`: the Web Push key.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The ID-token signing keys of the OpenID Connect provider, and the Web Push (VAPID) key.",
        subcommands: [Rotate.self, List.self, VAPID.self])

    struct VAPID: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vapid",
            abstract: "Show the Web Push (VAPID) public key, or make a new key pair with --rotate.",
            discussion: """
                Browsers tie each notification subscription to this key. After --rotate, restart \
                the servers on this data folder (they read the key at start; copy vapid.key to \
                instances with a copy of the folder): push services then refuse messages for \
                subscriptions made with the old key, which are dropped, and the web app \
                subscribes again with the new key the next time it opens. The old key is kept \
                as vapid.key.retired-TIME beside it.
                """)
        @OptionGroup var location: AdminDataFolder
        @Flag(help: "Replace the key pair with a new one (the old one is kept, retired).") var rotate = false

        func run() async throws {
            let data = try await location.folder()
            let path = (data as NSString).appendingPathComponent(VAPIDKey.fileName)
            do {
                if rotate {
                    let (key, retired) = try VAPIDKey.rotate(dataDirectory: data, now: Int(Date().timeIntervalSince1970))
                    print("new VAPID key in \(path); public key \(key.applicationServerKey)")
                    if let retired { print("the old key is kept as \(retired)") }
                    print("restart the servers on this data folder; devices subscribe again when the app next opens")
                    return
                }
                guard FileManager.default.fileExists(atPath: path) else {
                    throw ServerExitStatus.fail(
                        "no VAPID key in \(data) yet: the server makes one at its first start", status: ServerExitStatus.usage)
                }
                let key = try VAPIDKey.load(path: path, create: false)
                print("VAPID public key: \(key.applicationServerKey)")
                print("file: \(path)")
            } catch let error as VAPIDKey.Failure {
                throw ServerExitStatus.fail(error.description, status: ServerExitStatus.usage)
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign with a new key from now on; the old one stays in the JWKS until its tokens have expired.")
        @OptionGroup var storage: AdminStorage
        var location: AdminDataFolder { storage.location }
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
            // In the audit log (and so to the hooks), when the database exists already.
            if let store = try? await storage.open() {
                try? await store.appendAudit(
                    AuditEvent(time: now, kind: "keys_rotate", detail: keys.map { "\($0.algorithm) \($0.kid)" }.joined(separator: ", ")))
            }
            let files = keys.map { "oidc-\($0.algorithm.lowercased())*.key" }.joined(separator: " and ")
            print("servers on this data folder pick them up at once; copy the folder's \(files) files to instances that use a copy")
        }

        /// The file of an algorithm's current key in the data folder.
        static func fileName(_ algorithm: String) -> String { "oidc-\(algorithm.lowercased()).key" }
    }

    struct List: AsyncParsableCommand {
        @OptionGroup var location: AdminDataFolder
        @OptionGroup var output: AdminOutput
        func run() async throws {
            let entries = try SigningKeys.list(dataDirectory: try await location.folder(), now: Int(Date().timeIntervalSince1970))
            if output.json { return try output.printJSON(entries.map(AdminRows.KeyRow.init)) }
            let table = AdminTable(header: ["KEY ID", "ALGORITHM", "STATUS"], rows: entries.map { [$0.kid, $0.algorithm, $0.status] })
            for line in table.lines { print(line) }
        }
    }
}
