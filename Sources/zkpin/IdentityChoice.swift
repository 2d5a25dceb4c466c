import ZKPinClient

/// The one stored identity a command acts for: those that can sign in, narrowed by `--user`
/// and `--server`; several left is a refusal that says how to choose.
enum IdentityChoice {
    static func one(in store: any IdentityStore, user: String?, server: String?) throws(ClientError) -> Identity {
        let serverURL = try server.map { (text: String) throws(ClientError) in try ServerURL.normalize(text) }
        var candidates = try store.all().filter(\.canSignIn)
        if let user { candidates = candidates.filter { $0.userId.lowercased() == user.lowercased() } }
        if let serverURL { candidates = candidates.filter { $0.server == serverURL } }
        guard let identity = candidates.first else { throw .unknownIdentity(userId: user, server: serverURL) }
        guard candidates.count == 1 else {
            let names = candidates.map { "\($0.userId) (\($0.server))" }.joined(separator: ", ")
            throw .badInput("Several stored identities: \(names). Choose one with --user EMAIL, and --server URL if needed.")
        }
        return identity
    }
}
