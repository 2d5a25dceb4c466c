import Foundation

/// Where the web client's files are at run time (`--web-dir`, docs/operator.md "The web app"):
/// the setting when given; else `share/zkpin/web` in a folder above the executable (the
/// tarball's `/opt/zkpin/share/zkpin/web`, the package's `/usr/share/zkpin/web`); else, for a
/// development build under `.build/`, the repository's `web/`. A web folder is one that holds
/// `mpin.js`.
public enum WebFolder {
    /// The folder to serve, or nil when none is found (the server then serves no web app).
    /// A `setting` that names no web folder is a configuration error.
    public static func find(setting: String?, executable: String? = executablePath()) throws -> String? {
        if let setting {
            guard isWebFolder(setting) else {
                throw SetupError("--web-dir \(setting) is not a web folder (it holds no mpin.js)")
            }
            return setting
        }
        guard let executable else { return nil }
        var dir = (executable as NSString).deletingLastPathComponent
        for _ in 0..<6 {
            let installed = (dir as NSString).appendingPathComponent("share/zkpin/web")
            if isWebFolder(installed) { return installed }
            let repository = (dir as NSString).appendingPathComponent("web")
            if isWebFolder(repository), FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent("Package.swift")) {
                return repository
            }
            let parent = (dir as NSString).deletingLastPathComponent
            if parent == dir { break }
            dir = parent
        }
        return nil
    }

    static func isWebFolder(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("mpin.js"))
    }

    /// The running executable with its symbolic links resolved (`/usr/bin/zkpin-server` is a
    /// link to `/usr/lib/zkpin/zkpin-server`).
    public static func executablePath() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
    }
}
