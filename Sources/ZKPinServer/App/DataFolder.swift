import Foundation
import GRDB

/// The data folder's hygiene: every file in it 0600 and every folder 0700 (keys, database,
/// mails), and one sentence for an error about it, without the library's own text.
public enum DataFolder {
    /// Narrows the modes of what is already there; new files are covered by the process's
    /// umask (`zkpin-server` sets 077). Best effort: a file it cannot change is left as it is.
    public static func restrictPermissions(_ folder: String) {
        chmod(folder, 0o700)
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return }
        for case let name as String in walker {
            let path = (folder as NSString).appendingPathComponent(name)
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: chmod(path, 0o700)
            case S_IFREG: chmod(path, 0o600)
            default: continue
            }
        }
    }

    /// One sentence for an error about the data folder or a file in it.
    public static func reason(_ error: any Error) -> String {
        if let setup = error as? SetupError { return setup.description }
        if let secret = error as? SecretFile.Failure { return secret.description }
        if let database = error as? DatabaseError {
            switch database.resultCode.primaryResultCode {
            case .SQLITE_CANTOPEN: return "the file cannot be opened or created (check the folder's owner and permissions)"
            case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH: return "the file cannot be written (permissions or a read-only disk)"
            case .SQLITE_BUSY, .SQLITE_LOCKED: return "another process holds it"
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: return "it is not a ZKPin database or is damaged"
            case .SQLITE_FULL: return "the disk is full"
            default: return "SQLite refused (\(database.message ?? "code \(database.resultCode.rawValue)"))"
            }
        }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
            if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(posix.code)))
            }
            switch nsError.code {
            case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
            case NSFileWriteOutOfSpaceError: return "the disk is full"
            case NSFileWriteFileExistsError: return "a file is in the way"
            default: break
            }
        }
        if let file = error as? CocoaError {
            switch file.code {
            case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
            case .fileWriteOutOfSpace: return "the disk is full"
            case .fileWriteVolumeReadOnly: return "the disk is read-only"
            default: return "the path cannot be used (is part of it a file?)"
            }
        }
        return "\(String(describing: type(of: error)))"
    }
}
