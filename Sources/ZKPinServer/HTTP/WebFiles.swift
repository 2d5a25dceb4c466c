import Foundation
import ZKPinProtocol
import ZKPinWire

/// The web client's files, read once at start into memory: `web/mpin.js` and `web/lib/*.js`
/// under `/js/`, and the files of `web/app/` (one level) under `/app/` (`/app` itself is its
/// `index.html`). A request is answered only by looking its path up in this table, so no
/// path a client sends ever reaches the file system (no traversal, no symbolic link followed
/// out of the folder, no hidden file, no test file).
public struct WebFiles: Sendable {
    public struct File: Sendable {
        public var body: [UInt8]
        public var contentType: String
        public var etag: String

        public init(body: [UInt8], contentType: String, etag: String) {
            self.body = body; self.contentType = contentType; self.etag = etag
        }

        /// The ETag from the body's SHA-256 (its first 12 bytes), as every served file has.
        public init(body: [UInt8], contentType: String) {
            self.init(body: body, contentType: contentType, etag: "\"" + Hex.encode(Array(Digest.sha256(body).prefix(12))) + "\"")
        }
    }

    public private(set) var files: [String: File] = [:]

    /// The extensions served, with their content types.
    static let contentTypes: [String: String] = [
        "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "html": "text/html; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "webmanifest": "application/manifest+json",
        "json": "application/json"
    ]

    public init(folder: String) throws {
        let fm = FileManager.default
        try add(folder: folder, file: "mpin.js", as: "/js/mpin.js")
        for name in (try? fm.contentsOfDirectory(atPath: folder + "/lib")) ?? [] where name.hasSuffix(".js") {
            try add(folder: folder + "/lib", file: name, as: "/js/lib/" + name)
        }
        for name in (try? fm.contentsOfDirectory(atPath: folder + "/app")) ?? [] {
            try add(folder: folder + "/app", file: name, as: "/app/" + name)
        }
        if let index = files["/app/index.html"] { files["/app"] = index; files["/app/"] = index }
    }

    /// Adds a regular file whose name and extension are allowed; anything else is skipped.
    mutating func add(folder: String, file relative: String, as path: String) throws {
        let components = relative.split(separator: "/")
        guard !components.isEmpty, components.allSatisfy({ !$0.hasPrefix(".") }),
            let ext = relative.split(separator: ".").last.map(String.init),
            let type = Self.contentTypes[ext]
        else { return }
        let full = (folder as NSString).appendingPathComponent(relative)
        let attributes = try FileManager.default.attributesOfItem(atPath: full)
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return }  // no links, no folders
        let body = Array(try Data(contentsOf: URL(fileURLWithPath: full)))
        files[path] = File(body: body, contentType: type)
    }

    public subscript(path: String) -> File? { files[path] }
}
