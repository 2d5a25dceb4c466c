import Foundation
import ZKPinClient
import ZKPinWire

/// `zkpin approve --watch`: the requests waiting now, then each new one as the server's live
/// stream tells of it, until Ctrl-C. The PIN is asked once; each request is listed and answered
/// with a PIN-made signature, as `zkpin approve` does. A lost connection (a server restart, the
/// network) is said, tried again with a growing wait, and said again when it is back; what the
/// server recorded meanwhile still arrives (`Last-Event-ID`), and each reconnection lists again.
struct ApprovalWatch {
    let approvals: Approvals
    let live: LiveEvents
    let identity: Identity
    let service: Service
    let pin: PIN
    /// `--binding-message`: only requests with exactly this message are answered.
    let bindingMessage: String?
    let deny: Bool
    /// Questions go to the terminal; without one the flags decide, and what they leave open waits.
    let interactive: Bool
    let json: Bool

    /// What the watch reacts to: the live stream, its end, or a listing to try again.
    private enum Step: Sendable {
        case live(LiveEvents.Update)
        case failed(ClientError)
        case listAgain
    }

    private enum Decision {
        case approve, deny
        case leave(String)
    }

    /// Seconds before a listing that failed on the way (the server busy, the network) is tried again.
    static let relistSeconds = 5

    func run() async throws(ClientError) {
        Interrupt.endCleanly(saying: "Stopped watching for requests to \(identity.userId).")
        var shown = Set<String>()
        // The first listing proves the PIN: a wrong one ends the command here, as in `zkpin approve`.
        _ = try await answerNew(&shown, duringWatch: false)
        let (steps, continuation) = AsyncStream<Step>.makeStream()
        let reader = Task { [live, identity, service] in
            do throws(ClientError) {
                try await live.watch(identity: identity, service: service) { continuation.yield(.live($0)) }
            } catch {
                continuation.yield(.failed(error))
            }
            continuation.finish()
        }
        defer { reader.cancel() }
        for await step in steps {
            var listed = true
            switch step {
            case .failed(let error): throw error
            case .listAgain: listed = try await answerNew(&shown, duringWatch: true)
            case .live(.connected(let connection)):
                switch connection {
                case .first: ClientOutput.note("Watching for new requests to \(identity.userId) (Ctrl-C to stop).")
                case .afterLoss: ClientOutput.note("Connected again to \(identity.server); watching for requests.")
                case .afterEnd: break
                }
                // Anything that arrived before this connection (or between streams) is listed.
                listed = try await answerNew(&shown, duringWatch: true)
            case .live(.lost(let reason, _)):
                ClientOutput.note(
                    "Lost the connection to \(identity.server): \(reason). Trying again until it is back; requests made meanwhile will still be shown."
                )
            case .live(.event("approval", _)): listed = try await answerNew(&shown, duringWatch: true)
            case .live(.event("identity", let payload)):
                let device = payload?.device.map { " (device \"\(DisplayText.escaped($0))\")" } ?? ""
                ClientOutput.note("A new identity was activated for \(identity.userId)\(device). If that was not you, tell the site's operator.")
            case .live(.event):
                break
            }
            if !listed {
                Task {
                    try? await Task.sleep(for: .seconds(Self.relistSeconds))
                    continuation.yield(.listAgain)
                }
            }
        }
    }

    /// Lists the pending requests and handles those not shown before. During the watch, trouble
    /// reaching the server is said and answered with false (the caller lists again later);
    /// anything else (a revoked or blocked identity) ends the watch.
    private func answerNew(_ shown: inout Set<String>, duringWatch: Bool) async throws(ClientError) -> Bool {
        let waiting: [PendingApproval]
        do throws(ClientError) {
            waiting = try await approvals.pending(identity: identity, service: service, pin: pin)
        } catch {
            guard duringWatch, error.exitCode == 3 else { throw error }
            ClientOutput.note("Could not list the requests: \(error.message)")
            return false
        }
        if !duringWatch && waiting.isEmpty { ClientOutput.note("No requests are waiting for \(identity.userId) now.") }
        for request in waiting where !shown.contains(request.authReqId) {
            shown.insert(request.authReqId)
            if try await !handle(request) { shown.remove(request.authReqId) }
        }
        return true
    }

    /// Shows one request and answers it as decided; false when the answer did not reach the
    /// server (it is shown again at the next listing).
    private func handle(_ request: PendingApproval) async throws(ClientError) -> Bool {
        ClientOutput.note(ApproveCommand.describe(request))
        let approve: Bool
        switch await decide(request) {
        case .leave(let why):
            ClientOutput.note("Left waiting: \(why).")
            report(request, status: "left")
            return true
        case .approve: approve = true
        case .deny: approve = false
        }
        let status: String
        do throws(ClientError) {
            status = try await approvals.answer(request, approve: approve, identity: identity, service: service, pin: pin)
        } catch {
            if case .cancelled(let text) = error {
                ClientOutput.note(text)
                return true
            }
            guard error.exitCode == 3 else { throw error }
            ClientOutput.note("The answer did not reach the server: \(error.message)")
            return false
        }
        let escaped = "\"\(DisplayText.escaped(request.bindingMessage))\" for \(DisplayText.escaped(request.site))"
        if !json { ClientOutput.info("\(status == "approved" ? "Approved" : "Denied"): \(escaped).") }
        report(request, status: status)
        return true
    }

    /// `--json`: one line per request handled.
    private func report(_ request: PendingApproval, status: String) {
        guard json else { return }
        ClientOutput.jsonLine(["status": status, "authReqId": request.authReqId, "site": request.site, "bindingMessage": request.bindingMessage])
    }

    /// The flags decide first; then the person at the terminal; without one, a request the
    /// flags do not settle waits (never approved blindly).
    private func decide(_ request: PendingApproval) async -> Decision {
        if let bindingMessage, request.bindingMessage != bindingMessage { return .leave("its message is not the --binding-message") }
        if deny { return .deny }
        let problem = ApproveCommand.displayProblem(request)
        if !interactive {
            if let problem { return .leave("it cannot be approved (\(problem)); deny it with --deny") }
            if bindingMessage != nil { return .approve }
            return .leave("no terminal to ask on; answer it with `zkpin approve`, or watch with --binding-message TEXT (approves those) or --deny")
        }
        let prompt = problem == nil ? "Approve? [y]es, [d]eny, or Enter to skip: " : "[d]eny, or Enter to skip: "
        guard let answer = await Self.ask(prompt) else { return .leave("no answer was typed") }
        switch answer.trimmingCharacters(in: .whitespaces).lowercased() {
        case "y" where problem == nil, "yes" where problem == nil: return .approve
        case "d", "deny": return .deny
        default: return .leave("skipped; answer it later with `zkpin approve`")
        }
    }

    /// A question at the terminal, read on a thread of its own: the live stream goes on being
    /// read meanwhile (a stream left unread would be taken for a silent server).
    static func ask(_ prompt: String) async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Terminal.ask(prompt)) }
        }
    }
}
