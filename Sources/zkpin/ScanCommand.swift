import ArgumentParser
import ZKPinClient

/// `zkpin scan PAYLOAD`: checks a payload and shows which service it belongs to.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Check a login payload (URL#CODE) and show the service it belongs to.")

    @Argument(
        help: ArgumentHelp(
            "URL#CODE, as in the command the sign-in page shows above its QR code (quote it); - reads it from standard input.", valueName: "PAYLOAD"))
    var payload: String?

    @Option(help: ArgumentHelp("A PNG picture of the QR code instead of the text.", valueName: "FILE"))
    var image: String?

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await ClientOutput.run(json: options.json) { () async throws(ClientError) in
            let payload = try PayloadSource.read(argument: payload, image: image)
            let service = try await Discovery(connection: options.connection()).discover(server: payload.server)
            let mismatch = service.hostMismatch
            if options.json {
                var object: [String: Any] = [
                    "status": "OK", "name": service.info.name, "origin": service.base,
                    "serviceURL": service.info.url, "curve": service.curve.rawValue,
                    "accessCode": payload.accessCode, "usePermits": service.settings.usePermits,
                    "hostMismatch": mismatch != nil
                ]
                if let mismatch { object["reportedHost"] = mismatch.reported }
                ClientOutput.json(object)
            } else {
                ClientOutput.info("Service: \(service.info.name)")
                ClientOutput.info("Origin: \(service.base)")
                ClientOutput.info("Curve: \(service.curve.rawValue)")
                ClientOutput.info("Access code: \(payload.accessCode) (check digit correct)")
            }
            if let mismatch {
                ClientOutput.note(HostWarning.text(reached: mismatch.reached, reported: mismatch.reported))
            }
        }
    }
}

enum HostWarning {
    static func text(reached: String, reported: String) -> String {
        "Warning: this payload points at \(reached), but the server there says it is \(reported). A page that shows someone else's code could be phishing; sign in only if you expected \(reached)."
    }
}
