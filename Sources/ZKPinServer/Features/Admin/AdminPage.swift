import Foundation
import Mustache

/// The admin page's HTML (`Templates/admin.mustache`, Mustache escaping every value): one
/// template, one view at a time (search, a person, a question before a change, the clients, a
/// new secret, the audit log).
struct AdminPage: Sendable {
    let template: MustacheTemplate
    let serviceName: String

    init(serviceName: String) throws {
        template = try Pages.load("admin")
        self.serviceName = serviceName
    }

    enum Section: String { case people, clients, audit }

    /// The page: `view` holds the view's section (`home`, `person`, ...) and its values.
    func adminHTML(title: String, section: Section, admin: String, csrf: String, view: [String: Any]) -> String {
        var object = view
        object["serviceName"] = serviceName
        object["title"] = title
        object["admin"] = admin
        object["csrf"] = csrf
        object["nav" + section.rawValue.prefix(1).uppercased() + section.rawValue.dropFirst()] = true
        return template.render(PageStrings.adding(to: object))
    }

    /// A sentence of the strings table with `{name}` placeholders filled in.
    static func say(_ key: String, _ values: [String: String] = [:]) -> String {
        var text = PageStrings.table[key, default: key]
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// An e-mail address as one path segment.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "@.-_"))) ?? text
    }

    static func identityRows(_ identities: [Identity]) -> [[String: Any]] {
        let t = PageStrings.table
        return identities.map { i in
            [
                "device": i.device.isEmpty ? t["accountDeviceUnnamed", default: ""] : i.device,
                "state": t["accountState_" + i.state.rawValue, default: i.state.rawValue], "failed": String(i.failedAttempts),
                "created": PageTime.text(i.created), "createdISO": ISOTime.string(i.created),
                "lastLogin": i.lastLogin.map(PageTime.text) ?? t["accountNever", default: ""]
            ]
        }
    }

    static func eventRows(_ events: [NumberedAuditEvent]) -> [[String: Any]] {
        events.reversed().map { row in
            let e = row.event
            return [
                "time": PageTime.text(e.time), "iso": ISOTime.string(e.time), "kind": e.kind, "person": e.userId ?? "",
                "address": e.address ?? "", "detail": e.detail
            ]
        }
    }

    static func clientRows(_ clients: [OIDCClient]) -> [[String: Any]] {
        clients.map { c in
            let row = AdminRows.ClientRow(c)
            let roles = (row.redirectURIs.isEmpty ? [] : ["sign-in"]) + row.roles + (row.adminScopes.isEmpty ? [] : ["admin API"])
            return ["id": c.id, "name": c.name, "roles": roles.joined(separator: ", "), "auth": c.authMethod, "rotatable": c.secretHash != nil]
        }
    }
}
