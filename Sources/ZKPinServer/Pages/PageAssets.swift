import Foundation

/// The pages' stylesheet and scripts, beside the templates in the package's resources
/// (`Templates/pages.css`, `login.js`, `account.js`) and served at `/pages/NAME`: the pages need
/// no web folder for them, and carry no inline script or style, so every page can have the
/// strict policy (`HTMLPage.policy`). The web app links the same stylesheet.
enum PageAssets {
    static let contentTypes = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8"]
    static let names = ["pages.css", "login.js", "account.js"]

    /// The files by path (`/pages/pages.css`), read once.
    static let files: [String: WebFiles.File] = {
        var files: [String: WebFiles.File] = [:]
        for name in names {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            guard let url = Bundle.module.url(forResource: parts[0], withExtension: parts[1], subdirectory: "Templates"),
                let data = try? Data(contentsOf: url), let type = contentTypes[parts[1]]
            else { continue }
            files["/pages/" + name] = WebFiles.File(body: Array(data), contentType: type)
        }
        return files
    }()
}
