import Foundation

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init(_ label: String = "zkpin-client-test") {
        path = NSTemporaryDirectory() + "/\(label)-\(UUID().uuidString)"
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
