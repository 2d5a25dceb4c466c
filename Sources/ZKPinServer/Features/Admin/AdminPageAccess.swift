import Hummingbird

/// Who may use the admin page (`--admins EMAIL,...`, signed in to ZKPin with an active
/// identity), and its forms' CSRF token: an HMAC of the session cookie under the relying
/// party's key, so only a page this server rendered for this session can post (besides the
/// same-origin check every page form has).
struct AdminPageAccess: Sendable {
    static let path = "/admin"

    let admins: Set<String>
    let session: SessionCookie
    let key: [UInt8]
    let access: AccessService
    let publicURL: String

    /// The addresses of `--admins`, normalised; nil when one is not an e-mail address.
    static func parse(_ text: String) -> Set<String>? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        var out: Set<String> = []
        for part in parts {
            guard let email = EmailAddress.normalized(part) else { return nil }
            out.insert(email)
        }
        return out
    }

    enum Visitor: Sendable {
        /// Not signed in (or the session's identity is no longer active).
        case anonymous
        /// Signed in, not an administrator.
        case other(String)
        case admin(email: String, cookie: String)
    }

    func visitor(_ request: Request) async throws(APIError) -> Visitor {
        guard let cookie = session.value(in: request), let email = try await access.signedInPerson(cookie: cookie) else { return .anonymous }
        return admins.contains(email) ? .admin(email: email, cookie: cookie) : .other(email)
    }

    /// The forms' token for this session.
    func csrf(cookie: String) -> String { Tokens.hmac(key: key, "admin-page\n" + cookie) }

    /// A change may go ahead: same origin, and the form's token is this session's.
    func checkChange(_ request: Request, cookie: String, token: String?) throws(APIError) {
        try SameOrigin.check(request, publicURL: publicURL)
        guard let token, Tokens.equal(token, csrf(cookie: cookie)) else {
            throw APIError(.forbidden, "this form is not from your admin page (or your session changed): open the admin page again")
        }
    }
}
