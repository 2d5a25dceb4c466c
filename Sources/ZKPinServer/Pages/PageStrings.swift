import Foundation

/// The pages' words, from one file per language (`Templates/strings.<lang>.json`), so that a
/// translation is one file. Templates read them as `{{t.key}}`; the login page's script gets
/// its status sentences through data attributes from the same table.
enum PageStrings {
    /// The shipped language.
    static let language = "en"

    /// The table of `language`; empty only for a broken install (the templates then render
    /// without words, and the page tests fail).
    static let table: [String: String] = load(language) ?? [:]

    static func load(_ language: String) -> [String: String]? {
        guard let url = Bundle.module.url(forResource: "strings.\(language)", withExtension: "json", subdirectory: "Templates"),
            let data = try? Data(contentsOf: url)
        else { return nil }
        return try? JSONDecoder().decode([String: String].self, from: data)
    }

    /// `object` with the table under `t`, as every template expects.
    static func adding(to object: [String: Any]) -> [String: Any] {
        var object = object
        object["t"] = table
        return object
    }
}
