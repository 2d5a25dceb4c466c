import Foundation

/// Adding and removing hooks (`zkpin-server admin hooks ...`).
public enum HookRegistry {
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every event a hook can ask for.
    public static var eventNames: [String] { SecurityEvents.names }

    /// A new hook for `url` (https, or http on loopback for a receiver in development), for
    /// `events` (nil or empty: all); it gets what happens from now on.
    public static func add(to store: Store, url: String, events: [String]?, now: Int) async throws -> Hook {
        guard OutboundURL.isAllowed(url) else {
            throw Invalid(description: "the hook URL must be https (or http on a loopback address for a receiver in development): \(url)")
        }
        let wanted = (events ?? []).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let unknown = wanted.first(where: { !SecurityEvents.names.contains($0) }) {
            throw Invalid(description: "\(unknown) is not an event; the events are " + SecurityEvents.names.joined(separator: ", "))
        }
        let hook = try await store.insertHook(id: "hk-" + Tokens.fresh(bytes: 8), url: url, events: wanted.isEmpty ? nil : wanted, now: now)
        try await store.appendAudit(AuditEvent(time: now, kind: "hook_add", detail: "\(hook.id) \(url)"))
        return hook
    }
}
