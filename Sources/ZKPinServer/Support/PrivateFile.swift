import Foundation

/// Files only the server's user may read (mode 0600 whatever the umask or the folder's mode),
/// written whole or not at all: into a temporary file in the same folder, every byte checked,
/// fsynced, then moved into place and the folder fsynced, so a crash leaves the old file or the
/// new one, never half of one.
public enum PrivateFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var step: String
        public var code: Int32
        public var description: String { "\(path): \(step) failed (\(String(cString: strerror(code))))" }
    }

    /// Writes `bytes` to `path`. `replace: false` never replaces a file that is there (it answers
    /// false then, and the caller reads the other writer's file); true replaces it atomically.
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws -> Bool {
        let tmp = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteError(path: tmp, step: "create", code: errno) }
        var ok = false
        defer {
            if !ok { unlink(tmp) }
        }
        do {
            defer { close(fd) }
            // 0600 even when the umask would have allowed less (or the file system more).
            guard fchmod(fd, 0o600) == 0 else { throw WriteError(path: tmp, step: "chmod", code: errno) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw WriteError(path: tmp, step: "write", code: errno)
                }
                offset += written
            }
            guard fsync(fd) == 0 else { throw WriteError(path: tmp, step: "fsync", code: errno) }
        }
        if replace {
            guard rename(tmp, path) == 0 else { throw WriteError(path: path, step: "rename", code: errno) }
        } else {
            // link() fails when the name exists: the file that is there wins.
            if link(tmp, path) != 0 {
                let code = errno
                unlink(tmp)
                ok = true
                if code == EEXIST { return false }
                throw WriteError(path: path, step: "link", code: code)
            }
            unlink(tmp)
        }
        ok = true
        syncFolder(of: path)
        return true
    }

    /// Makes the new name itself durable.
    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Creates an empty 0600 file at `path` when none is there, and narrows an existing one to
    /// 0600: SQLite gives its -wal and -shm files the database file's mode. Best effort: what
    /// cannot be done here, the database library then reports in its own words.
    public static func prepare(_ path: String) {
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = fchmod(fd, 0o600)
        close(fd)
    }
}
