import Foundation
import Hummingbird

/// `/admin`: the admin page for the people of `--admins`, who sign in to it with ZKPin itself
/// (the sign-in page returns here). Search people, see a person's identities and recent
/// events, revoke or unblock after a question; see the clients and give one a new secret; read
/// the audit log with filters. Every change is a same-origin form post with this session's
/// CSRF token, and is audited with the administrator's address.
enum AdminPageRoutes {
    struct ChangeForm: Decodable {
        var csrf: String?
        /// "yes" from the question's form; without it the question is asked.
        var confirm: String?
    }

    static let searchResults = 50
    static let auditPage = 50

    static func collection(
        rp: RelyingParty, provider: OIDCProvider, admins: Set<String>, address: ClientAddress
    ) throws -> RouteCollection<AppContext> {
        let routes = RouteCollection(context: AppContext.self)
        let page = try AdminPage(serviceName: rp.config.serviceName)
        let gate = AdminPageAccess(
            admins: admins, session: SessionCookie(config: rp.config), key: rp.links.key, access: rp.access, publicURL: rp.config.publicURL)

        /// The administrator, or the answer for anyone else: to sign in (and back here), or 403.
        @Sendable func administrator(_ request: Request) async throws -> (email: String, cookie: String, csrf: String)? {
            switch try await gate.visitor(request) {
            case .admin(let email, let cookie): return (email, cookie, gate.csrf(cookie: cookie))
            case .anonymous, .other: return nil
            }
        }
        @Sendable func refusal(_ request: Request) async throws -> Response {
            switch try await gate.visitor(request) {
            case .other(let email):
                let text = AdminPage.say("adminNotAdmin", ["email": email])
                return HTMLPage.response(HTMLPage.message(title: AdminPage.say("adminNotAdminTitle"), text), status: .forbidden)
            default:
                guard request.method == .get else { throw APIError(.forbidden, "sign in to the admin page first") }
                let back = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
                return HTMLPage.redirect("/?" + ReturnAddress.query(back))
            }
        }

        routes.get("/admin") { request, _ in
            guard let who = try await administrator(request) else { return try await refusal(request) }
            let q = (request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            var view: [String: Any] = ["home": true, "q": q]
            if !q.isEmpty {
                guard q.utf8.count <= 256 else { throw APIError.bad("the search is at most 256 characters") }
                let people = try await rp.storage("search people") { try await $0.people(containing: q, limit: searchResults) }
                let results = people.map { person in
                    let states = person.states.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
                    return ["email": person.userId, "pathEmail": AdminPage.pathSegment(person.userId), "summary": states.joined(separator: ", ")]
                }
                view["searched"] = true
                view["noResults"] = results.isEmpty
                view["results"] = results
            }
            return HTMLPage.response(
                page.adminHTML(title: AdminPage.say("adminPeople"), section: .people, admin: who.email, csrf: who.csrf, view: view))
        }

        routes.get("/admin/people/:email") { request, context in
            guard let who = try await administrator(request) else { return try await refusal(request) }
            let email = try AdminAPIRoutes.personInPath(AdminCaller(provider: provider, address: address), context)
            let (identities, events) = try await rp.storage("read a person") { store in
                (try await store.identities(userId: email), try await store.numberedAuditLog(AuditQuery(userId: email, limit: 20)))
            }
            guard !identities.isEmpty || !events.isEmpty else {
                let text = AdminPage.say("adminPersonUnknown", ["email": email])
                return HTMLPage.response(HTMLPage.message(title: AdminPage.say("adminPeople"), text), status: .notFound)
            }
            var view: [String: Any] = [
                "person": [
                    "pathEmail": AdminPage.pathSegment(email), "identities": AdminPage.identityRows(identities),
                    "canRevoke": identities.contains { $0.state != .revoked }, "canUnblock": identities.contains { $0.state == .blocked }
                ] as [String: Any],
                "events": ["rows": AdminPage.eventRows(events), "noEvents": events.isEmpty] as [String: Any]
            ]
            // After a change: what it did, said at the top (the count is only a number).
            if let done = request.uri.queryParameters.get("done"), let count = request.uri.queryParameters.get("count").flatMap({ Int($0) }) {
                let key = done == "revoke" ? "adminRevoked" : done == "unblock" ? "adminUnblocked" : nil
                let identities = AdminPage.say(count == 1 ? "adminIdentityOne" : "adminIdentityMany")
                if let key { view["notice"] = AdminPage.say(key, ["email": email, "count": String(count), "identities": identities]) }
            }
            return HTMLPage.response(page.adminHTML(title: email, section: .people, admin: who.email, csrf: who.csrf, view: view))
        }

        for action in ["revoke", "unblock"] {
            routes.post("/admin/people/:email/\(action)") { request, context in
                let form = try await FormBody.decode(ChangeForm.self, from: request, context: context)
                guard let who = try await administrator(request) else { return try await refusal(request) }
                try gate.checkChange(request, cookie: who.cookie, token: form.csrf)
                let email = try AdminAPIRoutes.personInPath(AdminCaller(provider: provider, address: address), context)
                let path = "/admin/people/" + AdminPage.pathSegment(email)
                guard form.confirm == "yes" else {
                    let prefix = action == "revoke" ? "adminRevoke" : "adminUnblock"
                    let view: [String: Any] = [
                        "confirm": [
                            "question": AdminPage.say(prefix + "Question", ["email": email]), "effect": AdminPage.say(prefix + "Effect"),
                            "formAction": path + "/" + action, "backURL": path, "button": AdminPage.say(prefix)
                        ]
                    ]
                    return HTMLPage.response(page.adminHTML(title: email, section: .people, admin: who.email, csrf: who.csrf, view: view))
                }
                let selection = IdentitySelection(userId: email)
                let changed = try await rp.storage("change identities") { store in
                    action == "revoke" ? try await store.revoke(selection) : try await store.unblock(selection)
                }
                await rp.audit.record(
                    action, userId: email, address: address.of(request, context), "admin page: \(who.email), \(changed) identities")
                return HTMLPage.redirect(path + "?done=\(action)&count=\(changed)")
            }
        }

        routes.get("/admin/clients") { request, _ in
            guard let who = try await administrator(request) else { return try await refusal(request) }
            let clients = try await rp.storage("read clients") { try await $0.oidcClients() }
            let view: [String: Any] = ["clients": ["rows": AdminPage.clientRows(clients)]]
            return HTMLPage.response(
                page.adminHTML(title: AdminPage.say("adminClients"), section: .clients, admin: who.email, csrf: who.csrf, view: view))
        }

        routes.post("/admin/clients/:id/secret") { request, context in
            let form = try await FormBody.decode(ChangeForm.self, from: request, context: context)
            guard let who = try await administrator(request) else { return try await refusal(request) }
            try gate.checkChange(request, cookie: who.cookie, token: form.csrf)
            let id = context.parameters.get("id") ?? ""
            guard let client = try await rp.storage("read a client", { try await $0.oidcClient(id: id) }), client.secretHash != nil else {
                throw APIError(.notFound, "no confidential client \(id)")
            }
            let title = AdminPage.say("adminClients")
            guard form.confirm == "yes" else {
                let view: [String: Any] = [
                    "confirm": [
                        "question": AdminPage.say("adminRotateQuestion", ["name": client.name, "id": id]),
                        "effect": AdminPage.say("adminRotateEffect"), "formAction": "/admin/clients/\(id)/secret",
                        "backURL": "/admin/clients", "button": AdminPage.say("adminRotate")
                    ]
                ]
                return HTMLPage.response(page.adminHTML(title: title, section: .clients, admin: who.email, csrf: who.csrf, view: view))
            }
            let now = provider.now
            let rotated = try await AdminClientRoutes.registry(provider, "rotate a client secret") {
                try await ClientRegistry.rotateSecret(in: $0, id: id, now: now)
            }
            guard let rotated else { throw APIError(.notFound, "no client \(id)") }
            provider.clients.forget(id)
            await rp.audit.record("admin_page", address: address.of(request, context), "\(who.email): new secret for \(id)")
            let view: [String: Any] = ["secret": ["value": rotated.secret]]
            return HTMLPage.response(
                page.adminHTML(title: "\(client.name) (\(id))", section: .clients, admin: who.email, csrf: who.csrf, view: view))
        }

        routes.get("/admin/audit") { request, _ in
            guard let who = try await administrator(request) else { return try await refusal(request) }
            let q = request.uri.queryParameters
            let email = (q.get("email") ?? "").trimmingCharacters(in: .whitespaces)
            let kind = (q.get("kind") ?? "").trimmingCharacters(in: .whitespaces)
            let since = q.get("since") ?? "", until = q.get("until") ?? ""
            let kinds = kind.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard email.utf8.count <= 1024, kind.count <= AdminAPIRoutes.maxKindText else {
                throw APIError.bad("the filters are too long")
            }
            let sinceTime = day(since), untilTime = day(until)
            var view: [String: Any] = ["audit": ["email": email, "kind": kind, "since": since, "until": until]]
            guard (since.isEmpty || sinceTime != nil) && (until.isEmpty || untilTime != nil) else {
                view["error"] = AdminPage.say("adminBadDay")
                return HTMLPage.response(
                    page.adminHTML(title: AdminPage.say("adminAudit"), section: .audit, admin: who.email, csrf: who.csrf, view: view),
                    status: .badRequest)
            }
            let before = q.get("before").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            let query = AuditQuery(
                userId: email.isEmpty ? nil : email, kinds: kinds, since: sinceTime, until: untilTime, before: before, limit: auditPage)
            let events = try await rp.storage("read audit") { try await $0.numberedAuditLog(query) }
            var listing: [String: Any] = ["rows": AdminPage.eventRows(events), "noEvents": events.isEmpty]
            if events.count == auditPage, let oldest = events.first?.id {
                var items = [URLQueryItem(name: "before", value: String(oldest))]
                for (name, value) in [("email", email), ("kind", kind), ("since", since), ("until", until)] where !value.isEmpty {
                    items.append(URLQueryItem(name: name, value: value))
                }
                var components = URLComponents()
                components.path = "/admin/audit"
                components.queryItems = items
                listing["olderURL"] = components.string ?? "/admin/audit"
            }
            view["events"] = listing
            return HTMLPage.response(
                page.adminHTML(title: AdminPage.say("adminAudit"), section: .audit, admin: who.email, csrf: who.csrf, view: view))
        }
        return routes
    }

    /// A day (YYYY-MM-DD, UTC) as the Unix time of its start.
    static func day(_ text: String) -> Int? {
        guard text.utf8.count == 10 else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withFullDate]
        return f.date(from: text).map { Int($0.timeIntervalSince1970) }
    }
}
