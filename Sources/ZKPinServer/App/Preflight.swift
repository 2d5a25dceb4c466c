import Foundation
import Logging

extension ZKPinServerApp {
    /// Every check of `o` that needs neither a write nor the network: the files the settings
    /// name (SMTP password and CA, D-TA 2 key, database password), the PostgreSQL URL, and
    /// whether the data folder and the outbox can be made. `zkpin-server config check` runs it,
    /// and `serve` runs it before it writes anything, so the two agree on every setting.
    public static func preflight(_ o: ServeOptions) throws(SetupError) {
        if o.port == 0 && o.publicURL == nil {
            throw SetupError("--port 0 needs --public-url: the default public URL (http://host:port) would name port 0")
        }
        try folderUsable(o.dataDirectory, what: "the data folder")
        if let smtp = o.smtp {
            let mailer: SMTPMailer
            do {
                mailer = try SMTPMailer(url: smtp, passwordFile: o.smtpPasswordFile, caFile: o.smtpCAFile, logger: Logger(label: "zkpin"))
            } catch let error as SetupError { throw error } catch {
                throw SetupError("--smtp: \(DataFolder.reason(error))")
            }
            if let ca = o.smtpCAFile {
                do { _ = try mailer.makeTLSContext() } catch {
                    throw SetupError("--smtp-ca-file: \(ca) cannot be read as PEM certificates")
                }
            }
        } else {
            if o.smtpPasswordFile != nil { throw SetupError("--smtp-password-file needs --smtp smtp://user@host:port") }
            if o.smtpCAFile != nil { throw SetupError("--smtp-ca-file needs --smtp smtp://user@host:port") }
            if let outbox = o.outbox { try folderUsable(outbox, what: "the outbox") }
        }
        if o.dta2URL != nil {
            guard let keyFile = o.dta2KeyFile else { throw SetupError("--dta2 needs --dta2-key-file") }
            do { _ = try SecretFile.load(keyFile) } catch {
                throw SetupError("--dta2-key-file: \(DataFolder.reason(error))", kind: .configuration)
            }
        } else if o.dta2KeyFile != nil {
            throw SetupError("--dta2-key-file needs --dta2 URL (without --dta2, D-TA 2 runs in this process with its own key)")
        }
        if let database = o.database {
            do { _ = try PostgresLocation(url: database, passwordFile: o.databasePasswordFile) } catch let error as PostgresLocation.Invalid {
                throw SetupError(error.description)
            } catch { throw SetupError("--database: \(DataFolder.reason(error))") }
        } else if o.databasePasswordFile != nil {
            throw SetupError("--database-password-file needs --database postgres://...")
        }
    }

    /// A folder that is there and usable, or that can be made: its nearest existing parent is
    /// a folder this process may write to.
    static func folderUsable(_ path: String, what: String) throws(SetupError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw SetupError("\(what) \(path) cannot be created: a file is in the way", kind: .dataFolder) }
            guard access(path, R_OK | W_OK | X_OK) == 0 else {
                throw SetupError("\(what) \(path) cannot be used: permission denied", kind: .dataFolder)
            }
            return
        }
        var parent = (path as NSString).deletingLastPathComponent
        if parent.isEmpty { parent = "." }
        while !FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder) {
            let up = (parent as NSString).deletingLastPathComponent
            if up.isEmpty || up == parent { break }
            parent = up
        }
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            throw SetupError("\(what) \(path) cannot be created: \(parent) is not a folder", kind: .dataFolder)
        }
        guard access(parent, W_OK | X_OK) == 0 else {
            throw SetupError("\(what) \(path) cannot be created: permission denied in \(parent)", kind: .dataFolder)
        }
    }
}
