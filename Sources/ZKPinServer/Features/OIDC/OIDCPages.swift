import Foundation
import Mustache

/// The provider's own page: errors that must not be redirected, and "signed out".
struct OIDCPages: Sendable {
    let message: MustacheTemplate

    init() throws {
        guard let template = Pages.messageTemplate else { throw CocoaError(.fileNoSuchFile) }
        message = template
    }

    func messagePage(serviceName: String, title: String, message text: String) -> String {
        message.render(PageStrings.adding(to: ["serviceName": serviceName, "title": title, "message": text]))
    }

    /// "Signed out", with the front-channel logout frames of the sites and, when the site asked
    /// to get the browser back, a link there (followed by itself after two seconds, so the
    /// frames have loaded).
    func signedOutPage(serviceName: String, message text: String, frames: [String], continueURL: String?) -> String {
        var values: [String: Any] = ["serviceName": serviceName, "title": "Signed out", "message": text, "frames": frames]
        if let continueURL { values["continueURL"] = continueURL }
        return message.render(PageStrings.adding(to: values))
    }

    /// "Sign out of ZKPin?" with a form that posts the request back with confirm=yes.
    func confirmLogoutPage(serviceName: String, fields: [[String: String]]) -> String {
        message.render(
            PageStrings.adding(to: [
                "serviceName": serviceName, "title": "Sign out?",
                "message": "Sign out of \(serviceName) in this browser?",
                "confirm": ["fields": fields]
            ]))
    }
}
