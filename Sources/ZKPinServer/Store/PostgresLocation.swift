import Foundation

/// Where the PostgreSQL store lives: `postgres://user@host:port/database` (also `postgresql://`),
/// or on this machine through PostgreSQL's Unix socket, written as libpq writes it:
/// `postgres://user@/database?host=/run/postgresql` (the socket file is
/// `DIR/.s.PGSQL.PORT`). The password never comes from the URL (it would show in `ps` and shell
/// history): it comes from `PGPASSWORD`, like libpq, or from a file of mode 0600
/// (`--database-password-file`); over the socket PostgreSQL may need none (`peer` or `trust`).
public struct PostgresLocation: Sendable, Equatable {
    /// The TCP host; empty when `socketDirectory` is set.
    public var host: String
    public var port: Int
    /// The folder of PostgreSQL's Unix socket, when the database is on this machine and reached
    /// through it (no network, and Debian's default `peer` authentication needs no password).
    public var socketDirectory: String?
    public var user: String
    public var database: String
    public var password: String?

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether `text` names a PostgreSQL database rather than something else.
    public static func isPostgresURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Parses the URL; the password comes from `passwordFile` when given, else `environment["PGPASSWORD"]`.
    public init(
        url text: String, passwordFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let usage = "use --database postgres://USER@HOST:PORT/DATABASE (or postgres://USER@/DATABASE?host=/SOCKET/FOLDER)"
        guard Self.isPostgresURL(text), let url = URLComponents(string: text) else {
            throw Invalid(description: "\(text.prefix(100)) is not a PostgreSQL URL; \(usage)")
        }
        guard url.password == nil else {
            throw Invalid(
                description: "the database URL holds a password; put it in PGPASSWORD or a 0600 file given with --database-password-file instead")
        }
        guard let user = url.user, !user.isEmpty else { throw Invalid(description: "the database URL names no user; \(usage)") }
        var socketDirectory: String?
        for item in url.queryItems ?? [] {
            guard item.name == "host" else {
                throw Invalid(
                    description:
                        "the database URL's query option \(item.name.prefix(40)) is not supported: the only one is host=/SOCKET/FOLDER (PostgreSQL's Unix socket); TCP connections are plain, meant for a private network or loopback"
                )
            }
            guard let value = item.value, value.hasPrefix("/") else {
                throw Invalid(description: "host= in the database URL takes the absolute path of PostgreSQL's socket folder, such as /run/postgresql")
            }
            guard socketDirectory == nil else { throw Invalid(description: "the database URL names its socket folder twice") }
            socketDirectory = value
        }
        // libpq also takes the socket's folder percent-encoded as the host (postgres://u@%2Frun%2Fpostgresql/db).
        let host = url.host.map { $0.removingPercentEncoding ?? $0 } ?? ""
        if host.hasPrefix("/") {
            guard socketDirectory == nil else { throw Invalid(description: "the database URL names its socket folder twice") }
            socketDirectory = host
        } else if socketDirectory != nil {
            guard host.isEmpty else { throw Invalid(description: "the database URL names both a host and a socket folder; \(usage)") }
        } else if host.isEmpty {
            throw Invalid(description: "the database URL names no host; \(usage)")
        }
        let port = url.port ?? 5432
        guard (1...65535).contains(port) else { throw Invalid(description: "the database URL names port \(port)") }
        var database = url.path
        while database.hasPrefix("/") { database.removeFirst() }
        guard !database.contains("/") else { throw Invalid(description: "the database name \(database) holds a slash; \(usage)") }
        // A Unix socket's path holds at most 107 bytes (sockaddr_un); say so rather than fail later.
        if let socketDirectory, "\(socketDirectory)/.s.PGSQL.\(port)".utf8.count > 107 {
            throw Invalid(description: "the socket folder \(socketDirectory.prefix(120)) is too long: a Unix socket's path holds at most 107 bytes")
        }
        self.host = socketDirectory == nil ? host : ""
        self.socketDirectory = socketDirectory
        self.port = port
        self.user = user.removingPercentEncoding ?? user
        self.database = database.isEmpty ? self.user : (database.removingPercentEncoding ?? database)
        if let passwordFile {
            password = try Self.readPasswordFile(passwordFile)
        } else if let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty {
            password = fromEnvironment
        } else {
            password = nil
        }
    }

    /// The first line of a file that only its owner can read.
    static func readPasswordFile(_ path: String) throws -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Invalid(description: "cannot read the database password file \(path)") }
        let mode = Int(st.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw Invalid(
                description: "\(path) has mode \(String(mode, radix: 8)); a password file must be readable by its owner only (chmod 600 \(path))")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty
        else { throw Invalid(description: "the database password file \(path) is empty or not text") }
        return String(line)
    }

    /// PostgreSQL's socket file, when reached through its Unix socket.
    public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// For messages: the URL without any secret.
    public var display: String {
        guard let socketDirectory else { return "postgres://\(user)@\(host):\(port)/\(database)" }
        return "postgres://\(user)@:\(port)/\(database)?host=\(socketDirectory)"
    }

    /// Where it is, for messages that name no user or database.
    public var address: String { socketPath ?? "\(host):\(port)" }
}
