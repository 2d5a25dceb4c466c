import Foundation
import Logging

extension ZKPinServerApp {
    /// The store of a relying party: SQLite in the data folder by default, PostgreSQL when
    /// `database` is a `postgres://` URL (several instances share it). `mustExist` refuses to
    /// create a missing SQLite file (admin commands look at an existing one).
    public static func openStore(
        dataDirectory: String, database: String?, passwordFile: String?,
        mustExist: Bool = false, logger: Logger
    ) async throws -> Store {
        guard let database else {
            if passwordFile != nil { throw SetupError("--database-password-file needs --database postgres://...") }
            let path = (dataDirectory as NSString).appendingPathComponent("zkpin.sqlite")
            if mustExist && !FileManager.default.fileExists(atPath: path) { throw SetupError("no database at \(path)", kind: .dataFolder) }
            do { return try Store.sqlite(path: path) } catch {
                throw SetupError("the database \(path) cannot be opened: \(DataFolder.reason(error))", kind: .dataFolder)
            }
        }
        let location: PostgresLocation
        do { location = try PostgresLocation(url: database, passwordFile: passwordFile) } catch let error as PostgresLocation.Invalid {
            throw SetupError(error.description)
        }
        do { return try await Store.postgres(location, logger: logger) } catch let error as SetupError {
            throw SetupError(error.description, kind: .unavailable)
        } catch {
            throw SetupError(
                "the PostgreSQL database at \(location.address) cannot be used (\(String(describing: type(of: error))))",
                kind: .unavailable)
        }
    }
}
