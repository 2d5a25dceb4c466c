import ArgumentParser
import ZKPinServer

/// The settings of `serve` and `config check` on the command line. Every one is optional here:
/// when a flag is not given, `ServeConfiguration` takes the environment, the config file or
/// the default, in that order.
struct ServeFlags: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "JSON file of settings, keys named like the flags: {\"port\": 8443, \"service-name\": \"Example\"}. Also ZKPIN_CONFIG.",
            valueName: "FILE"))
    var config: String?

    @Option(name: .customLong("host"), help: ArgumentHelp(ServeSetting.helpText("host"), valueName: "HOST"))
    var host: String?
    @Option(name: .customLong("port"), help: ArgumentHelp(ServeSetting.helpText("port"), valueName: "PORT"))
    var port: String?
    @Option(name: .customLong("data"), help: ArgumentHelp(ServeSetting.helpText("data"), valueName: "DIR"))
    var data: String?
    @Option(name: .customLong("curve"), help: ArgumentHelp(ServeSetting.helpText("curve"), valueName: "CURVE"))
    var curve: String?
    @Option(name: .customLong("public-url"), help: ArgumentHelp(ServeSetting.helpText("public-url"), valueName: "URL"))
    var publicUrl: String?
    @Option(name: .customLong("service-name"), help: ArgumentHelp(ServeSetting.helpText("service-name"), valueName: "NAME"))
    var serviceName: String?
    @Option(name: .customLong("mail-from"), help: ArgumentHelp(ServeSetting.helpText("mail-from"), valueName: "FROM"))
    var mailFrom: String?
    @Option(name: .customLong("outbox"), help: ArgumentHelp(ServeSetting.helpText("outbox"), valueName: "DIR"))
    var outbox: String?
    @Option(name: .customLong("smtp"), help: ArgumentHelp(ServeSetting.helpText("smtp"), valueName: "URL"))
    var smtp: String?
    @Option(name: .customLong("smtp-password-file"), help: ArgumentHelp(ServeSetting.helpText("smtp-password-file"), valueName: "FILE"))
    var smtpPasswordFile: String?
    @Option(name: .customLong("smtp-ca-file"), help: ArgumentHelp(ServeSetting.helpText("smtp-ca-file"), valueName: "FILE"))
    var smtpCaFile: String?
    @Option(name: .customLong("dta2"), help: ArgumentHelp(ServeSetting.helpText("dta2"), valueName: "URL"))
    var dta2: String?
    @Option(name: .customLong("dta2-key-file"), help: ArgumentHelp(ServeSetting.helpText("dta2-key-file"), valueName: "FILE"))
    var dta2KeyFile: String?
    @Option(name: .customLong("permits"), help: ArgumentHelp(ServeSetting.helpText("permits"), valueName: "on|off"))
    var permits: String?
    @Option(name: .customLong("max-attempts"), help: ArgumentHelp(ServeSetting.helpText("max-attempts"), valueName: "N"))
    var maxAttempts: String?
    @Option(name: .customLong("notify-user"), help: ArgumentHelp(ServeSetting.helpText("notify-user"), valueName: "on|off"))
    var notifyUser: String?
    @Option(name: .customLong("access-code-ttl"), help: ArgumentHelp(ServeSetting.helpText("access-code-ttl"), valueName: "SECONDS"))
    var accessCodeTtl: String?
    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(ServeSetting.helpText("trusted-proxy"), valueName: "ADDRESS"))
    var trustedProxy: String?
    @Option(name: .customLong("registrations-per-address"), help: ArgumentHelp(ServeSetting.helpText("registrations-per-address"), valueName: "N"))
    var registrationsPerAddress: String?
    @Option(name: .customLong("pass1-per-address"), help: ArgumentHelp(ServeSetting.helpText("pass1-per-address"), valueName: "N"))
    var pass1PerAddress: String?
    @Option(name: .customLong("pass1-per-identity"), help: ArgumentHelp(ServeSetting.helpText("pass1-per-identity"), valueName: "N"))
    var pass1PerIdentity: String?
    @Option(name: .customLong("max-connections"), help: ArgumentHelp(ServeSetting.helpText("max-connections"), valueName: "N"))
    var maxConnections: String?
    @Option(
        name: .customLong("max-connections-per-address"), help: ArgumentHelp(ServeSetting.helpText("max-connections-per-address"), valueName: "N"))
    var maxConnectionsPerAddress: String?
    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(ServeSetting.helpText("idle-timeout"), valueName: "SECONDS"))
    var idleTimeout: String?
    @Option(name: .customLong("body-timeout"), help: ArgumentHelp(ServeSetting.helpText("body-timeout"), valueName: "SECONDS"))
    var bodyTimeout: String?
    @Option(name: .customLong("verification-batch"), help: ArgumentHelp(ServeSetting.helpText("verification-batch"), valueName: "N"))
    var verificationBatch: String?
    @Option(name: .customLong("verification-wait"), help: ArgumentHelp(ServeSetting.helpText("verification-wait"), valueName: "MILLISECONDS"))
    var verificationWait: String?
    @Option(name: .customLong("identity-cache"), help: ArgumentHelp(ServeSetting.helpText("identity-cache"), valueName: "N"))
    var identityCache: String?
    @Option(name: .customLong("otp-digits"), help: ArgumentHelp(ServeSetting.helpText("otp-digits"), valueName: "N"))
    var otpDigits: String?
    @Option(name: .customLong("otp-ttl"), help: ArgumentHelp(ServeSetting.helpText("otp-ttl"), valueName: "SECONDS"))
    var otpTtl: String?
    @Option(name: .customLong("otp-wrong-codes"), help: ArgumentHelp(ServeSetting.helpText("otp-wrong-codes"), valueName: "N"))
    var otpWrongCodes: String?
    @Option(name: .customLong("otp-wrong-window"), help: ArgumentHelp(ServeSetting.helpText("otp-wrong-window"), valueName: "SECONDS"))
    var otpWrongWindow: String?
    @Option(name: .customLong("push-services"), help: ArgumentHelp(ServeSetting.helpText("push-services"), valueName: "ORIGIN,..."))
    var pushServices: String?
    @Option(name: .customLong("database"), help: ArgumentHelp(ServeSetting.helpText("database"), valueName: "URL"))
    var database: String?
    @Option(name: .customLong("database-password-file"), help: ArgumentHelp(ServeSetting.helpText("database-password-file"), valueName: "FILE"))
    var databasePasswordFile: String?
    @Option(name: .customLong("web-dir"), help: ArgumentHelp(ServeSetting.helpText("web-dir"), valueName: "DIR"))
    var webDir: String?
    @Option(name: .customLong("log-level"), help: ArgumentHelp(ServeSetting.helpText("log-level"), valueName: "LEVEL"))
    var logLevel: String?
    @Option(name: .customLong("log-format"), help: ArgumentHelp(ServeSetting.helpText("log-format"), valueName: "text|json"))
    var logFormat: String?

    /// The flags given, by setting name.
    var given: [String: String] {
        let all: [String: String?] = [
            "host": host,
            "port": port,
            "data": data,
            "curve": curve,
            "public-url": publicUrl,
            "service-name": serviceName,
            "mail-from": mailFrom,
            "outbox": outbox,
            "smtp": smtp,
            "smtp-password-file": smtpPasswordFile,
            "smtp-ca-file": smtpCaFile,
            "dta2": dta2,
            "dta2-key-file": dta2KeyFile,
            "permits": permits,
            "max-attempts": maxAttempts,
            "notify-user": notifyUser,
            "access-code-ttl": accessCodeTtl,
            "trusted-proxy": trustedProxy,
            "registrations-per-address": registrationsPerAddress,
            "pass1-per-address": pass1PerAddress,
            "pass1-per-identity": pass1PerIdentity,
            "max-connections": maxConnections,
            "max-connections-per-address": maxConnectionsPerAddress,
            "idle-timeout": idleTimeout,
            "body-timeout": bodyTimeout,
            "verification-batch": verificationBatch,
            "verification-wait": verificationWait,
            "identity-cache": identityCache,
            "otp-digits": otpDigits,
            "otp-ttl": otpTtl,
            "otp-wrong-codes": otpWrongCodes,
            "otp-wrong-window": otpWrongWindow,
            "push-services": pushServices,
            "database": database,
            "database-password-file": databasePasswordFile,
            "web-dir": webDir,
            "log-level": logLevel,
            "log-format": logFormat
        ]
        return all.compactMapValues { $0 }
    }
}
