import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Sends mail over SMTP: EHLO, STARTTLS (required), AUTH PLAIN when a user is given, then one
/// message. The password comes from ZKPIN_SMTP_PASSWORD or a 0600 file, never the command line.
public struct SMTPMailer: Mailer {
    public let host: String
    public let port: Int
    public let user: String?
    let password: String?
    let caFile: String?
    let logger: Logger
    /// A server that stops answering must not hang the sender: the connection is closed after
    /// this, which ends the session with an error.
    public var sessionTimeout: Duration = .seconds(60)

    public init(url: String, passwordFile: String?, caFile: String? = nil, logger: Logger) throws {
        guard let components = URLComponents(string: url), components.scheme == "smtp", let host = components.host, !host.isEmpty
        else { throw SetupError("--smtp takes smtp://user@host:port") }
        self.host = host
        self.port = components.port ?? 587
        self.user = components.user?.removingPercentEncoding
        if components.password != nil { throw SetupError("put the SMTP password in ZKPIN_SMTP_PASSWORD or a 0600 file, not in the URL") }
        if let env = ProcessInfo.processInfo.environment["ZKPIN_SMTP_PASSWORD"], !env.isEmpty {
            password = env
        } else if let passwordFile {
            password = try SMTPMailer.readPasswordFile(passwordFile)
        } else {
            password = nil
        }
        if user != nil && password == nil { throw SetupError("an SMTP user needs ZKPIN_SMTP_PASSWORD or --smtp-password-file") }
        self.caFile = caFile
        self.logger = logger
    }

    static func readPasswordFile(_ path: String) throws -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { throw SetupError("--smtp-password-file: cannot read \(path)") }
        guard Int(st.st_mode) & 0o077 == 0 else { throw SetupError("--smtp-password-file: \(path) must have mode 0600") }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw SetupError("--smtp-password-file: cannot read \(path)")
        }
        return text.trimmingCharacters(in: .newlines)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func send(_ mail: Mail) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let tls = try makeTLSContext()
        let limit = sessionTimeout
        let watchdog = Task { [channel] in
            try await Task.sleep(for: limit)
            try? await channel.channel.close()
        }
        defer { watchdog.cancel() }
        try await channel.executeThenClose { inbound, outbound in
            var lines = SMTPLineReader(inbound.makeAsyncIterator())
            func command(_ text: String, expect code: Int) async throws -> [String] {
                if !text.isEmpty { try await outbound.write(ByteBuffer(string: text + "\r\n")) }
                let reply = try await lines.reply()
                guard reply.code == code else {
                    // AUTH lines carry the password: never echo the command itself.
                    throw Failure(description: "SMTP server answered \(reply.code) \(reply.lines.last ?? "")")
                }
                return reply.lines
            }
            _ = try await command("", expect: 220)
            let capabilities = try await command("EHLO zkpin", expect: 250)
            guard capabilities.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                throw Failure(description: "the SMTP server does not offer STARTTLS")
            }
            _ = try await command("STARTTLS", expect: 220)
            let handler = try NIOSSLClientHandler(context: tls, serverHostname: isIPAddress(host) ? nil : host)
            try await channel.channel.pipeline.addHandler(handler, position: .first).get()
            let secured = try await command("EHLO zkpin", expect: 250)
            if let user, let password {
                guard secured.contains(where: { $0.uppercased().hasPrefix("AUTH") && $0.uppercased().contains("PLAIN") }) else {
                    throw Failure(description: "the SMTP server does not offer AUTH PLAIN")
                }
                let token = Data(([0] + Array(user.utf8) + [0] + Array(password.utf8))).base64EncodedString()
                _ = try await command("AUTH PLAIN \(token)", expect: 235)
            }
            _ = try await command("MAIL FROM:<\(bareAddress(mail.from))>", expect: 250)
            _ = try await command("RCPT TO:<\(bareAddress(mail.to))>", expect: 250)
            _ = try await command("DATA", expect: 354)
            let text = mail.rfc5322(messageID: "\(Int(Date().timeIntervalSince1970)).\(Tokens.fresh(bytes: 6))@zkpin")
            // Dot-stuffing: a line that starts with "." gets another.
            let stuffed = text.components(separatedBy: "\r\n").map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n")
            _ = try await command(stuffed + ".", expect: 250)
            _ = try? await command("QUIT", expect: 221)
        }
    }

    func makeTLSContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
        }
        return try NIOSSLContext(configuration: configuration)
    }

    func isIPAddress(_ host: String) -> Bool { (try? SocketAddress(ipAddress: host, port: 0)) != nil }

    func bareAddress(_ text: String) -> String {
        if let open = text.lastIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close {
            return String(text[text.index(after: open)..<close])
        }
        return text
    }
}

/// Reads SMTP replies (possibly multi-line `250-...` then `250 ...`) from the byte stream.
struct SMTPLineReader {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var pending = [UInt8]()

    init(_ iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) { self.iterator = iterator }

    mutating func line() async throws -> String {
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                var bytes = Array(pending[..<end])
                pending.removeFirst(end + 1)
                if bytes.last == 0x0D { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
            guard pending.count < 64 * 1024, let buffer = try await iterator.next() else {
                throw SMTPMailer.Failure(description: "the SMTP server closed the connection")
            }
            pending += buffer.readableBytesView
        }
    }

    mutating func reply() async throws -> (code: Int, lines: [String]) {
        var lines: [String] = []
        while true {
            let line = try await line()
            guard line.count >= 3, let code = Int(line.prefix(3)) else {
                throw SMTPMailer.Failure(description: "malformed SMTP reply")
            }
            lines.append(String(line.dropFirst(4)))
            if line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] == " " { return (code, lines) }
        }
    }
}
