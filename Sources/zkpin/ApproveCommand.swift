import ArgumentParser
import Foundation
import ZKPinClient
import ZKPinWire

/// `zkpin approve`: shows what sites ask this person to approve (OpenID CIBA) and answers one
/// with a PIN-protected signature (DVS), or denies it.
struct ApproveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve (or deny) what a site asks you to confirm, such as a payment, with your PIN.",
        discussion: """
            Asks for the PIN, lists the requests waiting for this identity (site, message, \
            details, expiry) and asks which to approve. The approval is a signature made with \
            the PIN, which the site keeps as evidence. Scripts: --pin-stdin approves the one \
            waiting request (exit 2 when several wait, unless --binding-message picks one); \
            --deny denies it; --not-me denies it and tells the server you did not ask (you \
            get a mail, and your operator may block your identities until they unblock them).

            --watch keeps running until Ctrl-C (exit 0): it answers the waiting requests, then \
            shows each new one the moment a site asks (the server's live stream) and asks \
            "Approve? [y]es, [d]eny, or Enter to skip". The PIN is asked once. When the server \
            restarts or the network drops, it says so, tries again, and shows what arrived \
            meanwhile. Without a terminal (or with --pin-stdin or --json) nothing is asked: \
            --deny denies every request, --binding-message TEXT approves those with \
            exactly that message, and any other request is shown and left waiting. With \
            --json each request handled is one line of JSON (status approved, denied or left).

            Examples:
              zkpin approve --watch
              echo 2468 | zkpin approve --watch --pin-stdin --binding-message "Deploy v2"
            """)

    @Option(help: ArgumentHelp("The server, when identities are stored for several.", valueName: "URL"))
    var server: String?

    @Option(help: ArgumentHelp("Which stored identity, when there are several.", valueName: "EMAIL"))
    var user: String?

    @Option(help: ArgumentHelp("Wait up to this long for a request to arrive (0: look once).", valueName: "SECONDS"))
    var wait: Int = 0

    @Option(name: .customLong("binding-message"), help: ArgumentHelp("Answer the request with exactly this message.", valueName: "TEXT"))
    var bindingMessage: String?

    @Flag(help: "Deny the request instead of approving it.")
    var deny = false

    @Flag(
        name: .customLong("not-me"),
        help:
            "Deny the request and tell the server you did not ask for it (you get a mail; your operator may block your identities until they unblock them)."
    )
    var notMe = false

    @Flag(name: .customLong("pin-stdin"), help: "Read the PIN as one line from standard input (no questions asked).")
    var pinStdin = false

    @Flag(help: "Keep running: answer each new request as it arrives, until Ctrl-C.")
    var watch = false

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard (0...3600).contains(wait) else { throw ValidationError("--wait is 0 to 3600 seconds") }
        if watch && wait != 0 { throw ValidationError("--watch waits for requests until Ctrl-C: leave out --wait") }
        if notMe && (deny || watch) { throw ValidationError("--not-me answers one request: leave out --deny and --watch") }
    }

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let store = try options.openStore()
            let identity = try IdentityChoice.one(in: store, user: user, server: server)
            let connection = options.connection()
            let service = try await Discovery(connection: connection).discover(server: identity.server)
            let approvals = Approvals(connection: connection, store: store)
            ClientOutput.note("Approvals for \(identity.userId) at \(service.info.name) (\(identity.server))")
            let pin = try PINPrompt.read(fromStandardInput: pinStdin)
            if watch {
                let live = LiveEvents(streams: EventStreamClient(timeoutSeconds: Int64(options.timeout)))
                try await ApprovalWatch(
                    approvals: approvals, live: live, identity: identity, service: service, pin: pin, bindingMessage: bindingMessage, deny: deny,
                    interactive: !pinStdin && !options.json && Terminal.isInteractive, json: options.json
                ).run()
                return
            }
            let waiting = try await pending(approvals, identity: identity, service: service, pin: pin)
            guard !waiting.isEmpty else {
                if options.json {
                    ClientOutput.json(["requests": [Any]()])
                } else {
                    ClientOutput.info("No requests are waiting for \(identity.userId).")
                }
                return
            }
            let chosen = try choose(from: waiting)
            let verb = try decide(chosen)
            let status = try await approvals.answer(chosen, verb: verb, identity: identity, service: service, pin: pin)
            if options.json {
                ClientOutput.json(["status": status, "authReqId": chosen.authReqId, "site": chosen.site, "bindingMessage": chosen.bindingMessage])
            } else {
                let said = status == "approved" ? "Approved" : status == "not_me" ? "Denied as not yours (a mail records it)" : "Denied"
                ClientOutput.info("\(said): \"\(DisplayText.escaped(chosen.bindingMessage))\" for \(DisplayText.escaped(chosen.site)).")
            }
        }
    }

    /// The requests, waiting up to `--wait` seconds for the first one (the PIN stays in memory
    /// only for this command).
    private func pending(_ approvals: Approvals, identity: Identity, service: Service, pin: PIN) async throws(ClientError) -> [PendingApproval] {
        let deadline = Date().addingTimeInterval(Double(wait))
        while true {
            var found = try await approvals.pending(identity: identity, service: service, pin: pin)
            if let bindingMessage { found = found.filter { $0.bindingMessage == bindingMessage } }
            if !found.isEmpty || Date() >= deadline { return found }
            do { try await Task.sleep(for: .seconds(3)) } catch { throw .cancelled("Stopped waiting for requests.") }
        }
    }

    private func choose(from waiting: [PendingApproval]) throws(ClientError) -> PendingApproval {
        if waiting.count == 1 { return waiting[0] }
        for (index, request) in waiting.enumerated() { ClientOutput.note("\(index + 1). " + Self.describe(request)) }
        guard !pinStdin, !options.json, let answer = Terminal.ask("Which request (1-\(waiting.count))? "),
            let number = Int(answer.trimmingCharacters(in: .whitespaces)), (1...waiting.count).contains(number)
        else {
            throw .badInput("\(waiting.count) requests are waiting; pick one with --binding-message TEXT.")
        }
        return waiting[number - 1]
    }

    /// Approve, deny or not me: the flags decide for scripts, the person decides at a terminal.
    private func decide(_ request: PendingApproval) throws(ClientError) -> String {
        ClientOutput.note(Self.describe(request))
        let unshowable = Self.displayProblem(request)
        if notMe { return "not_me" }
        if pinStdin || options.json || deny {
            if !deny, let unshowable { throw .badInput("This request cannot be approved: \(unshowable). Deny it with --deny, or leave it.") }
            return deny ? "deny" : "approve"
        }
        let question =
            unshowable != nil
            ? "[d]eny, [n]ot me, or Enter to leave it waiting: " : "Approve? [y]es, [d]eny, [n]ot me, or Enter to leave it waiting: "
        guard let answer = Terminal.ask(question) else { throw .cancelled("No answer given; the request is still waiting.") }
        switch answer.trimmingCharacters(in: .whitespaces).lowercased() {
        case "y",
            "yes" where unshowable == nil:
            return "approve"
        case "d", "deny": return "deny"
        case "n", "not me": return "not_me"
        default: throw .cancelled("Left waiting; run `zkpin approve` again to answer it.")
        }
    }

    /// Why a request cannot be approved here: its text breaks `DisplayText`'s rule (the server
    /// refuses such text; this checks again, so what is shown is what is signed).
    static func displayProblem(_ r: PendingApproval) -> String? {
        if let p = DisplayText.problem(r.site) ?? DisplayText.problem(r.bindingMessage) { return p }
        guard let details = r.authorizationDetails else { return nil }
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(details.utf8)) else { return "its details are not JSON" }
        return DisplayText.problem(inJSON: parsed)
    }

    /// One request as a person reads it: site, message, the details as "key: value" lines, expiry.
    /// Every string from the server is escaped for the terminal.
    static func describe(_ r: PendingApproval) -> String {
        let e = DisplayText.escaped
        var lines = ["\(e(r.site)) asks: \"\(e(r.bindingMessage))\""]
        if let details = r.authorizationDetails, let data = details.data(using: .utf8),
            let parsed = try? JSONSerialization.jsonObject(with: data) as? [Any]
        {
            for item in parsed { lines += flatten(item, prefix: "  ") }
        }
        let left = max(0, r.expires - Int(Date().timeIntervalSince1970))
        lines.append("  (expires in \(left) s)")
        if let problem = displayProblem(r) { lines.append("  This request cannot be approved: \(problem). Deny it, or leave it.") }
        return lines.joined(separator: "\n")
    }

    static func flatten(_ value: Any, prefix: String, key: String? = nil) -> [String] {
        if let object = value as? [String: Any] {
            let head = key.map { ["\(prefix)\(DisplayText.escaped($0)):"] } ?? []
            return head + object.keys.sorted().flatMap { flatten(object[$0]!, prefix: prefix + (key == nil ? "" : "  "), key: $0) }
        }
        if let array = value as? [Any] {
            return array.flatMap { flatten($0, prefix: prefix, key: key) }
        }
        return ["\(prefix)\(key.map { "\(DisplayText.escaped($0)): " } ?? "")\(DisplayText.escaped("\(value)"))"]
    }
}
