import Foundation
import GRDB

/// One sentence for an error of the local SQLite file: GRDB's own text repeats the SQL
/// statement and arguments, which mean nothing to the person.
enum StoreErrorText {
    static func reason(_ error: any Error) -> String {
        guard let database = error as? DatabaseError else {
            // Foundation's file errors carry the POSIX cause, whose text is a sentence.
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            if let posix = underlying, posix.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(posix.code))).lowercased()
            }
            if let file = error as? CocoaError { return FileErrorText.reason(file) }
            return "it could not be opened (\(String(describing: type(of: error))))"
        }
        switch database.resultCode.primaryResultCode {
        case .SQLITE_CANTOPEN: return "the file cannot be opened or created"
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH: return "the file cannot be written (permissions or a read-only disk)"
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "another zkpin command holds it; try again when it has finished"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return "the file is not a zkpin identity store or is damaged"
        case .SQLITE_FULL: return "the disk is full"
        case .SQLITE_IOERR: return "reading or writing the file failed"
        default: return "SQLite refused (\(database.message ?? "code \(database.resultCode.rawValue)"))"
        }
    }
}
