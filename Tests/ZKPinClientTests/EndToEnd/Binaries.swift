import Foundation

/// The built `zkpin` and `zkpin-server` executables: beside the test bundle (SwiftPM puts every
/// product of a build in one folder), or in `$ZKPIN_BIN_DIR`.
enum Binaries {
    static let folder: String = {
        if let dir = ProcessInfo.processInfo.environment["ZKPIN_BIN_DIR"], !dir.isEmpty { return dir }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().path
    }()

    static var client: String { folder + "/zkpin" }
    static var server: String { folder + "/zkpin-server" }

    static var serverAvailable: Bool { FileManager.default.isExecutableFile(atPath: server) }
}
