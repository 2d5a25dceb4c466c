import ArgumentParser
import Foundation
import ZKPinServer

/// `zkpin-server admin hooks add|list|remove`: the receivers of security events.
struct Hooks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send security events (blocks, revocations, approvals, sign-ins...) to your systems as signed tokens.",
        discussion: """
            Each event is a Security Event Token (RFC 8417) signed with the OpenID Connect \
            provider's keys (verify it on /oauth/jwks), posted to the hook's URL as \
            application/secevent+jwt (RFC 8935); a 2xx answer takes it. Events reach a hook in \
            the order they happened, at least once (the token's txn names the event), and are \
            retried while the receiver is down. The events: \(HookRegistry.eventNames.joined(separator: ", ")).
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a receiver; it gets the events from now on.")
        @Argument(help: "The receiver's URL: https, or http on a loopback address for a receiver in development.") var url: String
        @Option(
            parsing: .upToNextOption,
            help: ArgumentHelp("The events it wants (names or a comma-separated list; default: all).", valueName: "EVENT"))
        var events: [String] = []
        @OptionGroup var storage: AdminStorage

        func run() async throws {
            let store = try await storage.open()
            do {
                let hook = try await HookRegistry.add(
                    to: store, url: url, events: events.isEmpty ? nil : events, now: Int(Date().timeIntervalSince1970))
                print("hook \(hook.id): \(hook.url) (\(hook.events?.joined(separator: ", ") ?? "all events"))")
            } catch let error as HookRegistry.Invalid { throw ServerExitStatus.fail(error.description, status: ServerExitStatus.usage) }
        }
    }

    struct List: AsyncParsableCommand {
        @OptionGroup var storage: AdminStorage
        func run() async throws {
            let store = try await storage.open()
            let newest = try await store.newestAuditId()
            let rows = try await store.hooks().map { hook in
                [hook.id, hook.url, hook.events?.joined(separator: ",") ?? "all", String(newest - hook.cursor), String(hook.attempts)]
            }
            for line in AdminTable(header: ["HOOK", "URL", "EVENTS", "BEHIND", "FAILURES"], rows: rows).lines { print(line) }
        }
    }

    struct Remove: AsyncParsableCommand {
        @Argument var hookId: String
        @OptionGroup var storage: AdminStorage
        func run() async throws {
            let store = try await storage.open()
            guard try await store.deleteHook(id: hookId) else {
                print("no hook \(hookId)")
                throw ExitCode(1)
            }
            try await store.appendAudit(AuditEvent(time: Int(Date().timeIntervalSince1970), kind: "hook_remove", detail: hookId))
            print("removed \(hookId)")
        }
    }
}
