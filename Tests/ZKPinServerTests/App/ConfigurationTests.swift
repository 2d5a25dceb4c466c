import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing
import ZKPinWire

@testable import ZKPinServer

/// Serve settings from flags, `ZKPIN_*` variables and the `--config` file (issue 15), the mail
/// sender, and what the request log says.
@Suite struct ConfigurationTests {
    static func configFile(_ json: String) throws -> String {
        let path = try TempDir.make() + "/zkpin.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aFlagBeatsTheEnvironmentWhichBeatsTheFileWhichBeatsTheDefault() async throws {
        let file = try Self.configFile(#"{"port": 7003, "service-name": "From the file", "max-attempts": 7, "permits": true}"#)
        let environment = ["ZKPIN_PORT": "7002", "ZKPIN_SERVICE_NAME": "From the environment"]
        let all = try await ServeConfiguration.resolve(flags: ["port": "7001"], configFile: file, environment: environment)
        #expect(all.text("port") == "7001" && all.source("port") == .flag("--port"))
        #expect(all.text("service-name") == "From the environment" && all.source("service-name") == .environment("ZKPIN_SERVICE_NAME"))
        #expect(all.text("max-attempts") == "7" && all.source("max-attempts") == .file(path: file))
        #expect(all.text("host") == "127.0.0.1" && all.source("host") == .defaultValue)
        #expect(all.source("public-url") == .unset)
        let options = try all.options()
        #expect(options.port == 7001 && options.serviceName == "From the environment" && options.maxAttempts == 7)
        #expect(options.permits)

        let withoutFlag = try await ServeConfiguration.resolve(flags: [:], configFile: file, environment: environment)
        #expect(try withoutFlag.options().port == 7002)
        let fileOnly = try await ServeConfiguration.resolve(flags: [:], configFile: file, environment: [:])
        #expect(try fileOnly.options().port == 7003)
        let defaults = try await ServeConfiguration.resolve(flags: [:], configFile: nil, environment: [:])
        #expect(try defaults.options().port == 8080)
        // ZKPIN_CONFIG names the file when --config does not.
        let named = try await ServeConfiguration.resolve(flags: [:], configFile: nil, environment: ["ZKPIN_CONFIG": file])
        #expect(named.configFile == file && named.text("port") == "7003")
        #expect(named.configFileSource == .environment("ZKPIN_CONFIG") && all.configFileSource == .flag("--config"))
    }

    /// The variable names the help and README give are the ones swift-configuration reads
    /// (its key mapping also splits camel case and digits, which the names must survive).
    @Test func everySettingIsReadFromItsDocumentedVariable() async throws {
        for setting in ServeSettings.all {
            let configuration = try await ServeConfiguration.resolve(
                flags: [:], configFile: nil,
                environment: [setting.environmentVariable: "7"])
            #expect(configuration.source(setting.name) == .environment(setting.environmentVariable), "\(setting.name)")
            #expect(configuration.text(setting.name) == "7")
        }
        #expect(ServeSettings.named("dta2-key-file")?.environmentVariable == "ZKPIN_DTA2_KEY_FILE")
    }

    @Test func aBadValueNamesItsSourceAndOnlyAFlagIsAUsageError() async throws {
        func problem(flags: [String: String] = [:], environment: [String: String] = [:], file: String? = nil) async -> ConfigurationError? {
            do {
                _ = try await ServeConfiguration.resolve(flags: flags, configFile: file, environment: environment).options()
                return nil
            } catch { return error }
        }
        let flag = await problem(flags: ["port": "eighty"])
        #expect(flag?.isUsageError == true && flag?.description.contains("--port") == true)
        let variable = await problem(environment: ["ZKPIN_PERMITS": "sometimes"])
        #expect(variable?.isUsageError == false && variable?.description.contains("ZKPIN_PERMITS") == true)
        let file = try Self.configFile(#"{"log-format": "xml"}"#)
        let fromFile = await problem(file: file)
        #expect(fromFile?.isUsageError == false && fromFile?.description.contains(file) == true)
        let typo = try Self.configFile(#"{"servicename": "x"}"#)
        #expect(await problem(file: typo)?.description.contains("unknown setting \"servicename\"") == true)
        #expect(await problem(file: try Self.configFile("[1, 2]"))?.description.contains("one JSON object") == true)
        #expect(await problem(file: "/nonexistent/zkpin.json")?.description.contains("cannot be read") == true)
        #expect(await problem(environment: ["ZKPIN_MAIL_FROM": "nobody"])?.description.contains("ZKPIN_MAIL_FROM") == true)
        #expect(await problem(flags: ["port": "0"])?.description.contains("needs --public-url") == true)
    }

    /// `identity-cache` reaches the relying party's prepared server secret; out of range it is
    /// refused with its name.
    @Test func theIdentityCacheSizeReachesTheServerSecret() async throws {
        let h = try await Harness.make(curve: .bn254cx)
        let configured = try await ServeConfiguration.resolve(
            flags: ["identity-cache": "500", "data": h.dir], configFile: nil, environment: [:])
        let options = try configured.options()
        #expect(options.identityCache == 500)
        let rp = try await ZKPinServerApp.makeRelyingParty(options).0
        #expect(rp.config.identityCacheEntries == 500)
        #expect(rp.login.verifier.serverSecret.identityCacheEntries == 500)
        let defaults = try await ServeConfiguration.resolve(flags: [:], configFile: nil, environment: [:]).options()
        #expect(defaults.identityCache == 16_384)
        for bad in ["0", "2000000", "many"] {
            do {
                _ = try await ServeConfiguration.resolve(flags: ["identity-cache": bad], configFile: nil, environment: [:]).options()
                Issue.record("identity-cache \(bad) was taken")
            } catch {
                #expect(error.description.contains("--identity-cache"), "\(error)")
            }
        }
    }

    @Test func theReportMasksSecretsAndNamesEverySource() async throws {
        let environment = [
            "ZKPIN_DATABASE": "postgres://zkpin:hunter2@db.example.com:5432/zkpin",
            "ZKPIN_SMTP_PASSWORD": "s3cret-smtp", "ZKPIN_SMTP": "smtp://mailer:pa55@mail.example.com:587"
        ]
        let configuration = try await ServeConfiguration.resolve(flags: ["host": "0.0.0.0"], configFile: nil, environment: environment)
        let text = SettingsReport.lines(configuration).joined(separator: "\n")
        for secret in ["hunter2", "s3cret-smtp", "pa55"] { #expect(!text.contains(secret), "\(secret) shown:\n\(text)") }
        #expect(text.contains("postgres://zkpin:\(SettingsReport.mask)@db.example.com:5432/zkpin"))
        #expect(text.contains("environment ZKPIN_SMTP_PASSWORD"))
        #expect(text.range(of: #"host\s+0\.0\.0\.0\s+flag --host"#, options: .regularExpression) != nil, "\(text)")
        #expect(text.range(of: #"port\s+8080\s+default"#, options: .regularExpression) != nil)
        // The default sender with a real relay is worth a warning.
        #expect(configuration.warnings.contains { $0.contains("mail-from") })
        let sender = try await ServeConfiguration.resolve(flags: ["mail-from": "login@example.com"], configFile: nil, environment: environment)
        #expect(!sender.warnings.contains { $0.contains("mail-from") })
        // A URL without a password, and other text, are shown as they are.
        #expect(SettingsReport.maskedURLPassword("smtp://mailer@mail.example.com:25") == "smtp://mailer@mail.example.com:25")
        #expect(SettingsReport.maskedURLPassword("not a url") == "not a url")
    }

    @Test func activationMailsComeFromTheConfiguredSender() async throws {
        let h = try await Harness.make {
            $0.mailFrom = "Example Login <login@example.com>"; $0.serviceName = "Example"
        }
        try await h.run { t in
            _ = try await TestUser.register(t, email: "sam@example.com", pin: 1357, outbox: h.outbox)
        }
        let mails = try FileManager.default.contentsOfDirectory(atPath: h.outbox).filter { $0.hasSuffix(".eml") }
        let text = try String(contentsOfFile: h.outbox + "/" + #require(mails.first), encoding: .utf8)
        #expect(text.contains("From: Example Login <login@example.com>"), "\(text.prefix(400))")
        #expect(!text.contains("zkpin.invalid"))
    }

    /// Polls and static files at debug, other requests at info, no e-mail or mpinId in any
    /// line; the JSON handler writes one object per line.
    @Test func requestLogsLeaveRoutineAtDebugAndPersonalDataOut() async throws {
        let h = try await Harness.make()
        let lines = Mutex<[String]>([])
        let logger = Logger(label: "zkpin") { label in
            JSONLogHandler(label: label, level: .info) { line in lines.withLock { $0.append(line) } }
        }
        let router = try ZKPinServerApp.router(rp: h.rp, dta2: nil, logger: logger)
        let mpinId = try await Application(router: router).test(.router) { client in
            let t = RouterTransport(client: client)
            // The requests whose paths or queries carry the mpinId (hex of the e-mail).
            let registered = try await t.json("PUT", "/rps/user", RegisterRequest(userId: "pat@example.com", deviceName: "d"))
                .json(RegisterResponse.self)
            _ = try await t.get("/rps/signature/\(registered.mpinId)?regOTT=\(registered.regOTT)")
            _ = try await t.get("/rps/timePermit/\(registered.mpinId)")
            _ = try await t.get("/mpinActivate?i=\(registered.mpinId)&e=1&s=00")
            let access = try await t.json("POST", "/rps/getAccessNumber", [String: String]()).json(AccessNumberResponse.self)
            _ = try await t.json("POST", "/rps/access", AccessRequest(webOTT: access.webOTT))
            _ = try await t.get("/logo.svg")
            _ = try await t.get("/service")
            return registered.mpinId
        }
        let logged = lines.withLock { $0 }
        let objects = try logged.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let messages = objects.compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.hasPrefix("GET /service ") })
        #expect(messages.contains { $0.hasPrefix("GET /rps/timePermit/REDACTED ") }, "\(messages)")
        // The registration poll's 401 (not activated yet, every 2 s) is routine too.
        #expect(!messages.contains { $0.contains("/rps/access") || $0.contains("/logo.svg") || $0.contains("/rps/signature/") }, "\(messages)")
        #expect(objects.allSatisfy { $0["level"] as? String != nil && $0["time"] as? String != nil && $0["label"] as? String == "zkpin" })
        let everything = logged.joined()
        #expect(!everything.contains("pat@example.com") && !everything.contains(mpinId), "\(everything)")
        #expect(!everything.contains(Hex.encode(Array("pat@example.com".utf8))))
    }
}
