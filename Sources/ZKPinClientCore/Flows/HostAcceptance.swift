import Foundation

/// Whether to sign in when the payload's host differs from the host the server reports for
/// itself. That is what a relay looks like: a page on the relay's host shows a code of the real
/// server, and signing in there would sign the relay's browser in with the person's identity.
/// So: refused without `--accept-host`; with it, refused for a host the identity was never used
/// with (its registration's host) unless `--force`; and on a terminal the person types the
/// host's name to confirm, after being shown both hosts.
public enum HostAcceptance {
    public enum Decision: Equatable, Sendable {
        case proceed
        /// Show both hosts and go on only when the person types `host`.
        case askToType(host: String)
        case refuse(String)
    }

    public static func decide(
        reached: String, reported: String, identityServer: String, acceptHost: Bool, force: Bool,
        interactive: Bool
    ) -> Decision {
        guard acceptHost else {
            return .refuse(
                "The payload points at \(reached), but that server calls itself \(reported). This may be a relay or a phishing page; nothing was sent. If you trust \(reached), run again with --accept-host."
            )
        }
        let usedBefore = ServerURL.hostAndPort(identityServer) == reached
        if !usedBefore && !force {
            return .refuse(
                "This identity was registered at \(ServerURL.hostAndPort(identityServer)), never used with \(reached), which says it is \(reported). Signing in there could sign someone else's browser in as you; nothing was sent. Add --force only if you are sure."
            )
        }
        return interactive ? .askToType(host: reached) : .proceed
    }

    /// Whether the typed answer names the host (case and surrounding spaces do not matter).
    public static func confirms(_ typed: String?, host: String) -> Bool {
        guard let typed else { return false }
        return typed.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == host.lowercased()
    }
}
