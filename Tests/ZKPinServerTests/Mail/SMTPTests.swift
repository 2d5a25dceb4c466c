import Foundation
import Logging
import Testing
import ZKPinTestSupport

@testable import ZKPinServer

/// The SMTP path against a real server: Python's aiosmtpd (pip install aiosmtpd) with
/// STARTTLS required and AUTH PLAIN. Skipped when python3 or aiosmtpd is missing.
@Suite struct SMTPTests {
    static let script = """
        import os, ssl, sys
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult
        cert, key, out, port = sys.argv[1:5]
        class Handler:
            async def handle_DATA(self, server, session, envelope):
                with open(out, 'wb') as f:
                    f.write(('FROM ' + envelope.mail_from + '\\nTO ' + ','.join(envelope.rcpt_tos) + '\\nTLS ' + str(session.ssl is not None) + '\\n').encode())
                    f.write(envelope.original_content)
                return '250 OK'
        def authenticate(server, session, envelope, mechanism, data):
            return AuthResult(success=(mechanism == 'PLAIN' and data.login == b'mailer' and data.password == b's3cret pass'))
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(cert, key)
        c = Controller(Handler(), hostname='127.0.0.1', port=int(port), tls_context=ctx, require_starttls=True,
                       authenticator=authenticate, auth_required=True, auth_require_tls=True)
        c.start()
        print('ready', flush=True)
        # The test SIGKILLs this process; the timer is a safety net if the test dies first. It
        # is long: on a busy machine the whole suite's parallel tests can starve this one for
        # minutes between start and send (120 s was seen to end the server before the send).
        import threading
        threading.Timer(1800, lambda: os._exit(0)).start()
        """

    static var available: Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import aiosmtpd"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.runAlone()) != nil else { return false }
        return p.exitStatus(within: 60) == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
    }

    func run(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: args[0])
        p.arguments = Array(args.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.runAlone()
        _ = p.exitStatus(within: 120) ?? p.stop()
    }

    @Test(.enabled(if: SMTPTests.available, "needs python3 with aiosmtpd and openssl"))
    func activationMailOverSTARTTLSWithAuthPlain() async throws {
        let dir = try TempDir.make()
        try run([
            "/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir + "/key.pem",
            "-out", dir + "/cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1"
        ])
        try Self.script.write(toFile: dir + "/smtpd.py", atomically: true, encoding: .utf8)
        let port = ServerProcess.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", dir + "/smtpd.py", dir + "/cert.pem", dir + "/key.pem", dir + "/received", "\(port)"]
        let stdout = Pipe()
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = stdout
        server.standardError = FileHandle.nullDevice
        try server.runAlone()
        // SIGKILL: a child may inherit a blocked SIGTERM from the test runner.
        defer { server.killNow() }
        _ = stdout.fileHandleForReading.availableData  // "ready"

        FileManager.default.createFile(atPath: dir + "/password", contents: Data("s3cret pass\n".utf8), attributes: [.posixPermissions: 0o600])
        let mailer = try SMTPMailer(
            url: "smtp://mailer@127.0.0.1:\(port)", passwordFile: dir + "/password",
            caFile: dir + "/cert.pem", logger: Logger(label: "smtp"))
        try await mailer.send(
            Mail(
                from: "ZKPin <no-reply@zkpin.invalid>", to: "alice@example.com", subject: "Activate",
                body: "Open this link:\n.hidden dot line\nhttp://x/mpinActivate?i=1"))
        let received = try String(contentsOfFile: dir + "/received", encoding: .utf8)
        #expect(received.contains("FROM no-reply@zkpin.invalid"))
        #expect(received.contains("TO alice@example.com"))
        #expect(received.contains("TLS True"))
        #expect(received.contains("Subject: Activate"))
        #expect(received.contains("\n.hidden dot line"))
        #expect(received.contains("http://x/mpinActivate?i=1"))

        // A wrong password is refused by the server and reported, not swallowed.
        FileManager.default.createFile(atPath: dir + "/bad", contents: Data("nope".utf8), attributes: [.posixPermissions: 0o600])
        var bad = try SMTPMailer(
            url: "smtp://mailer@127.0.0.1:\(port)", passwordFile: dir + "/bad", caFile: dir + "/cert.pem",
            logger: Logger(label: "smtp"))
        bad.sessionTimeout = .seconds(10)
        await #expect(throws: (any Error).self) {
            try await bad.send(Mail(from: "a@b.cd", to: "c@d.ef", subject: "x", body: "y"))
        }
    }

    @Test func passwordNeverFromTheURLAndFilesMustBePrivate() throws {
        #expect(throws: SetupError.self) { try SMTPMailer(url: "smtp://u:pw@h:25", passwordFile: nil, logger: Logger(label: "t")) }
        let dir = try TempDir.make()
        FileManager.default.createFile(atPath: dir + "/open", contents: Data("pw".utf8), attributes: [.posixPermissions: 0o644])
        #expect(throws: SetupError.self) { try SMTPMailer(url: "smtp://u@h:25", passwordFile: dir + "/open", logger: Logger(label: "t")) }
    }
}
