import Synchronization

/// The site an access code signs in to, when an OpenID Connect client asked for it: the
/// authorize page records the client's display name under its code, and `POST /rps/codeStatus`
/// tells the person's client ("Signing in to Wiki"). Kept in this process only, for as long as
/// the code lives; a code shown by another instance has no name here (the client then names
/// only the service).
public final class SiteNames: Sendable {
    private struct Entry { var name: String; var expires: Int }
    private let entries = Mutex<[String: Entry]>([:])
    /// A bound on the codes remembered at once (older ones go first).
    let capacity: Int

    public init(capacity: Int = 10_000) { self.capacity = capacity }

    func record(code: String, name: String, expires: Int, now: Int) {
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity, let oldest = entries.min(by: { $0.value.expires < $1.value.expires }) {
                    entries[oldest.key] = nil
                }
            }
            entries[code] = Entry(name: name, expires: expires)
        }
    }

    func name(code: String, now: Int) -> String? {
        entries.withLock { entries in
            guard let entry = entries[code] else { return nil }
            guard entry.expires > now else {
                entries[code] = nil
                return nil
            }
            return entry.name
        }
    }
}
