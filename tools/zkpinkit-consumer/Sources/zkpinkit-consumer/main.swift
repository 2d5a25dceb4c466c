// The person's side of tools/zkpinkit-test, through ZKPinKit alone. Usage:
//   zkpinkit-consumer SERVER-URL STORE-FILE EMAIL PIN
// Registers EMAIL (prints the confirmation code, waits for the activation), then reads commands
// from standard input, one a line, and prints one result line each:
//   sign-in URL#CODE   -> "signed in USER"
//   approve MESSAGE    -> "approved STATUS" (the pending request with that binding message)
//   otp                -> "one-time code DIGITS"
//   wrong-pin URL#CODE -> "wrong PIN, attempts left N"
// Any failure prints "error: ..." and exits 1.
import Foundation
import ZKPinKit

func say(_ line: String) {
    print(line)
    fflush(nil)  // every stream: the script reads each line as it comes
}

let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    say("usage: zkpinkit-consumer SERVER-URL STORE-FILE EMAIL PIN")
    exit(2)
}
let (server, storePath, email, pin) = (arguments[1], arguments[2], arguments[3], arguments[4])

do {
    let zkpin = ZKPinAuthenticator(store: try FileIdentityStore(path: storePath))
    let pending = try await zkpin.register(email: email, deviceName: "consumer", server: server)
    say("confirmation code \(pending.confirmationCode)")
    let identity = try await zkpin.completeRegistration(pending, pin: pin, timeoutSeconds: 120, interval: .milliseconds(200))
    say("registered \(identity.userId) signing \(identity.canSign)")
    while let line = readLine() {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        let command = words.first ?? "", argument = words.count > 1 ? words[1] : ""
        switch command {
        case "sign-in":
            let payload = try ZKPinAuthenticator.readPayload(argument)
            try await zkpin.checkPayload(payload)
            say("signed in \(try await zkpin.signIn(payload, pin: pin))")
        case "wrong-pin":
            let payload = try ZKPinAuthenticator.readPayload(argument)
            let wrong = String(format: "%04d", (Int(pin)! + 1) % 10000)
            let refusal: ZKPinKitError
            do {
                _ = try await zkpin.signIn(payload, pin: wrong)
                say("error: a wrong PIN signed in")
                exit(1)
            } catch {
                refusal = error
            }
            guard case .wrongPIN(let left, _) = refusal else { throw refusal }
            say("wrong PIN, attempts left \(left.map(String.init) ?? "unknown")")
        case "approve":
            let requests = try await zkpin.pendingApprovals(server: server, pin: pin)
            guard let request = requests.first(where: { $0.bindingMessage == argument }) else {
                say("error: no pending request \"\(argument)\" among \(requests.map(\.bindingMessage))")
                exit(1)
            }
            say("approved \(try await zkpin.answer(request, approve: true, server: server, pin: pin))")
        case "otp":
            say("one-time code \(try await zkpin.oneTimeCode(server: server, pin: pin))")
        default:
            say("error: unknown command \(command)")
            exit(1)
        }
    }
} catch {
    say("error: \(error)")
    exit(1)
}
