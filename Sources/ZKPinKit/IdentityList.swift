import ZKPinClientCore

/// The store primitives on the whole list of identities, for the stores that keep them as one
/// value (a file, a Keychain item): each change reads the list, changes it and writes it back.
enum IdentityList {
    /// Runs `change` on the identity (server, userId) in `identities`; true in `changed` when the
    /// list is to be written back.
    static func modify<Result>(
        _ identities: inout [Identity], server: String, userId: String, _ change: (inout Identity?) -> Result
    ) -> (result: Result, changed: Bool) {
        let index = identities.firstIndex { $0.server == server && $0.userId == userId }
        var identity = index.map { identities[$0] }
        let before = identity
        let result = change(&identity)
        guard identity != before else { return (result, false) }
        if let index { identities.remove(at: index) }
        if let identity { identities.append(identity) }
        identities.sort { ($0.server, $0.userId) < ($1.server, $1.userId) }
        return (result, true)
    }

    /// Removes `userId` on `server` (every server when nil); how many were removed.
    static func delete(_ identities: inout [Identity], userId: String, server: String?) -> Int {
        let count = identities.count
        identities.removeAll { $0.userId == userId && (server == nil || $0.server == server) }
        return count - identities.count
    }
}
