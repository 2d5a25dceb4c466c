import ArgumentParser
import Foundation
import ZKPinClient

/// `zkpin users`: the stored identities.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List the identities stored on this device, with their server and state.")

    @OptionGroup var options: LocalOptions

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let identities = try options.openStore().all()
            let formatter = ISO8601DateFormatter()
            if options.json {
                ClientOutput.json([
                    "status": "OK",
                    "users": identities.map { identity -> [String: Any] in
                        var row: [String: Any] = [
                            "userId": identity.userId, "server": identity.server,
                            "state": identity.state.rawValue, "curve": identity.curve,
                            "hasToken": identity.token != nil,
                            "pendingRegistration": identity.hasPendingRegistration
                        ]
                        if let name = identity.serviceName { row["service"] = name }
                        if let device = identity.deviceName { row["device"] = device }
                        if let last = identity.lastLoginAt { row["lastLogin"] = formatter.string(from: last) }
                        return row
                    }
                ])
                return
            }
            guard !identities.isEmpty else {
                ClientOutput.note("No identities are stored in \(options.resolvedHome). Create one with `zkpin register EMAIL --server URL`.")
                return
            }
            let rows = identities.map { identity -> [String] in
                var state = identity.state.rawValue
                if identity.hasPendingRegistration && identity.canSignIn { state += " (new registration waiting)" }
                let last = identity.lastLoginAt.map { formatter.string(from: $0) } ?? "-"
                return [identity.userId, identity.server, state, last]
            }
            let header = ["USER", "SERVER", "STATE", "LAST LOGIN"]
            let widths = (0..<header.count).map { column in
                ([header] + rows).map { $0[column].count }.max() ?? 0
            }
            for row in [header] + rows {
                let cells = row.enumerated().map { index, cell in
                    index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                }
                ClientOutput.info(cells.joined(separator: "  "))
            }
        }
    }
}
