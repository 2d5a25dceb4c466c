import ArgumentParser
import Foundation
import ZKPinServer

/// `zkpin-server admin clients add|list|set-redirect-uris|rotate-secret|remove`: the relying
/// parties of the OpenID Connect provider (and the admin API's clients).
extension OIDCClient.CIBAMode: ExpressibleByArgument {}

struct Clients: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register the web sites that sign people in through ZKPin (OpenID Connect).",
        subcommands: [Add.self, List.self, SetRedirectURIs.self, RotateSecret.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register a client; prints its id and (once) its secret.")
        @Argument(help: "The name people see: \"Sign in to NAME with your PIN\".") var name: String
        @Option(name: .customLong("redirect-uri"), parsing: .upToNextOption, help: "Exact redirect URI(s) of the site.") var redirectURIs: [String] =
            []
        @Option(name: .customLong("post-logout-uri"), parsing: .upToNextOption, help: "Where the site may send people after logout.")
        var postLogoutURIs: [String] = []
        @Flag(name: .customLong("public"), help: "A public client (no secret; PKCE required).") var isPublic = false
        @Option(name: .customLong("id-token-alg"), help: "ES256 (default) or RS256, for sites that cannot verify ES256.") var idTokenAlg = "ES256"
        @Flag(name: .customLong("otp"), help: "A service that checks one-time codes at /otp/verify (FreeRADIUS, PAM); no redirect URI needed.")
        var otp = false
        @Option(
            name: .customLong("ciba"),
            help: ArgumentHelp(
                "A site that asks people to approve things (OpenID CIBA): poll (it polls the token endpoint) or ping (ZKPin also posts to --notification-endpoint).",
                valueName: "poll|ping"))
        var ciba: OIDCClient.CIBAMode?
        @Option(
            name: .customLong("notification-endpoint"),
            help: ArgumentHelp("With --ciba ping: the site's URI that ZKPin posts to when the person answered.", valueName: "URI"))
        var notificationEndpoint: String?
        @Flag(
            name: .customLong("device"),
            help:
                "A device without a browser (a TV, a command-line tool) that signs people in with the device grant (RFC 8628); usually with --public."
        )
        var deviceGrant = false
        @Flag(
            name: .customLong("introspect"),
            help:
                "A resource server or gateway that may introspect any client's access tokens at /oauth/introspect (RFC 7662); no redirect URI needed."
        )
        var introspect = false
        @Option(
            name: .customLong("backchannel-logout-uri"),
            help: ArgumentHelp(
                "The site's back-channel logout URI: ZKPin posts a signed logout token there when the person signs out, is revoked or is blocked (https, or http on loopback).",
                valueName: "URI"))
        var backchannelLogoutURI: String?
        @Flag(
            name: .customLong("backchannel-logout-session-required"),
            help: "The site needs the session id (sid) in each logout token (the ID tokens carry it too).")
        var backchannelLogoutSessionRequired = false
        @Option(
            name: .customLong("frontchannel-logout-uri"),
            help: ArgumentHelp(
                "The site's front-channel logout page: ZKPin's sign-out page loads it in a hidden frame (https, or http on loopback).",
                valueName: "URI"))
        var frontchannelLogoutURI: String?
        @Flag(name: .customLong("frontchannel-logout-session-required"), help: "Add iss and sid to the front-channel logout URI.")
        var frontchannelLogoutSessionRequired = false
        @Option(
            name: .customLong("admin-scopes"),
            help: ArgumentHelp(
                "A client of the admin API (/admin/v1) with client credentials: read (zkpin:admin:read) or write (read and zkpin:admin:write).",
                valueName: "read|write"))
        var adminScopes: String?
        @Option(
            name: .customLong("jwks-file"),
            help: ArgumentHelp(
                "The client's public keys (a JWK Set, EC P-256 or RSA): it authenticates at the token endpoint with assertions signed by them (private_key_jwt, RFC 7523) and gets no secret.",
                valueName: "FILE"))
        var jwksFile: String?
        @OptionGroup var storage: AdminStorage
        @Flag(help: "Print the client and its secret as one JSON document (as POST /admin/v1/clients answers).") var json = false

        func run() async throws {
            var scopes: [String] = []
            if let access = adminScopes {
                guard let granted = AdminScopes.granted(access) else {
                    throw ServerExitStatus.fail("--admin-scopes is read or write, not \(access)", status: ServerExitStatus.usage)
                }
                scopes = granted
            }
            var jwks: String? = nil
            if let jwksFile {
                guard let data = FileManager.default.contents(atPath: jwksFile) else {
                    throw ServerExitStatus.fail("cannot read --jwks-file \(jwksFile)", status: ServerExitStatus.usage)
                }
                jwks = String(decoding: data, as: UTF8.self)
            }
            let store = try await storage.open()
            do {
                let (client, secret) = try await ClientRegistry.add(
                    to: store, name: name, redirectURIs: redirectURIs, postLogoutURIs: postLogoutURIs,
                    isPublic: isPublic, idTokenAlg: idTokenAlg, otp: otp, ciba: ciba, notificationEndpoint: notificationEndpoint,
                    deviceGrant: deviceGrant, introspect: introspect,
                    logout: ClientRegistry.LogoutURIs(
                        backchannel: backchannelLogoutURI, backchannelSessionRequired: backchannelLogoutSessionRequired,
                        frontchannel: frontchannelLogoutURI, frontchannelSessionRequired: frontchannelLogoutSessionRequired),
                    adminScopes: scopes, jwks: jwks, now: Int(Date().timeIntervalSince1970))
                if json { return try AdminOutput.printDocument(AdminRows.ClientWithSecret(client, secret: secret)) }
                print("client_id: \(client.id)")
                if let secret {
                    print("client_secret: \(secret)")
                } else if jwks != nil {
                    print("no secret: the client signs assertions with its keys (private_key_jwt)")
                } else if redirectURIs.isEmpty {
                    // The device grant has no authorization code, so PKCE does not apply to it.
                    print("public client: no secret")
                } else {
                    print("public client: no secret, PKCE (S256) required at /oauth/authorize")
                }
            } catch let error as ClientRegistry.Invalid { throw ServerExitStatus.fail(error.description, status: ServerExitStatus.usage) }
        }
    }

    struct List: AsyncParsableCommand {
        @OptionGroup var storage: AdminStorage
        @OptionGroup var output: AdminOutput
        func run() async throws {
            let store = try await storage.open()
            let clients = try await store.oidcClients()
            if output.json { return try output.printJSON(clients.map { AdminRows.ClientRow($0) }) }
            for c in clients {
                print(
                    "\(c.id)\t\(c.name)\t\(c.isPublic ? "public" : "confidential")\t\(c.idTokenAlg)\(c.otp ? "\totp" : "")\(c.ciba.map { "\tciba-\($0.rawValue)" } ?? "")\(c.deviceGrant ? "\tdevice" : "")\(c.introspect ? "\tintrospect" : "")\t\(c.redirectURIs.joined(separator: " "))"
                        + (c.postLogoutURIs.isEmpty ? "" : "\tlogout: \(c.postLogoutURIs.joined(separator: " "))")
                        + (c.backchannelLogoutURI.map { "\tbackchannel-logout: \($0)" } ?? "")
                        + (c.frontchannelLogoutURI.map { "\tfrontchannel-logout: \($0)" } ?? ""))
            }
        }
    }

    struct SetRedirectURIs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-redirect-uris",
            abstract: "Replace a client's redirect URIs (and, with --post-logout-uri, its post-logout URIs); audited.")
        @Argument var clientId: String
        @Option(name: .customLong("redirect-uri"), parsing: .upToNextOption, help: "The exact redirect URI(s), replacing the current ones.")
        var redirectURIs: [String] = []
        @Option(name: .customLong("post-logout-uri"), parsing: .upToNextOption, help: "Replace the post-logout URIs too.")
        var postLogoutURIs: [String] = []
        @OptionGroup var storage: AdminStorage
        @OptionGroup var output: AdminOutput

        func run() async throws {
            let store = try await storage.open()
            let client: OIDCClient?
            do {
                client = try await ClientRegistry.setRedirectURIs(
                    in: store, id: clientId, redirectURIs: redirectURIs, postLogoutURIs: postLogoutURIs.isEmpty ? nil : postLogoutURIs,
                    now: Int(Date().timeIntervalSince1970))
            } catch let error as ClientRegistry.Invalid { throw ServerExitStatus.fail(error.description, status: ServerExitStatus.usage) }
            guard let client else { throw ServerExitStatus.fail("no client \(clientId)", status: 1) }
            if output.json { return try output.printJSON(AdminRows.ClientRow(client)) }
            print("\(client.id) redirect URIs: \(client.redirectURIs.joined(separator: " "))")
        }
    }

    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give a confidential client a new secret (printed once); the old one stops within two seconds.")
        @Argument var clientId: String
        @OptionGroup var storage: AdminStorage
        @OptionGroup var output: AdminOutput

        func run() async throws {
            let store = try await storage.open()
            let rotated: (client: OIDCClient, secret: String)?
            do {
                rotated = try await ClientRegistry.rotateSecret(in: store, id: clientId, now: Int(Date().timeIntervalSince1970))
            } catch let error as ClientRegistry.Invalid { throw ServerExitStatus.fail(error.description, status: ServerExitStatus.usage) }
            guard let rotated else { throw ServerExitStatus.fail("no client \(clientId)", status: 1) }
            if output.json { return try output.printJSON(AdminRows.ClientWithSecret(rotated.client, secret: rotated.secret)) }
            print("client_id: \(rotated.client.id)")
            print("client_secret: \(rotated.secret)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a client; its codes and tokens stop at once. Audited.")
        @Argument var clientId: String
        @OptionGroup var storage: AdminStorage
        func run() async throws {
            let store = try await storage.open()
            guard try await ClientRegistry.removeClient(from: store, id: clientId, now: Int(Date().timeIntervalSince1970)) else {
                print("no client \(clientId)")
                throw ExitCode(1)
            }
            print("removed \(clientId)")
        }
    }
}
