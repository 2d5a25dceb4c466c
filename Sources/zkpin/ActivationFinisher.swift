import Foundation
import ZKPinClient

/// The part `register` and `confirm` share: wait for the activation with a spinner, ask the
/// PIN twice, store the token, say what to do next.
enum ActivationFinisher {
    static func finish(
        registration: Registration, identity: Identity, service: Service,
        waitSeconds: Int, pinFromStandardInput: Bool, allowTrivialPIN: Bool, json: Bool,
        confirmationCode: String?
    ) async throws(ClientError) {
        let spinner = Spinner(label: "Waiting for the activation of \(identity.userId)", seconds: waitSeconds)
        let activation: Registration.Activation
        do {
            activation = try await registration.waitForActivation(
                identity: identity, service: service,
                timeoutSeconds: waitSeconds)
            await spinner.stop()
        } catch {
            await spinner.stop()
            throw error
        }
        ClientOutput.note("The identity \(identity.userId) is activated.")
        var clientSecret = activation.clientSecret
        defer { for i in clientSecret.indices { clientSecret[i] = 0 } }
        let pin = try PINPrompt.readNew(fromStandardInput: pinFromStandardInput, allowTrivial: allowTrivialPIN)
        let stored = try registration.finish(
            identity: identity, service: service, clientSecret: clientSecret, pin: pin, holder: activation.holder)
        if json {
            var object: [String: Any] = [
                "status": "OK", "userId": stored.userId, "server": stored.server,
                "state": stored.state.rawValue, "curve": stored.curve
            ]
            if let confirmationCode { object["confirmationCode"] = confirmationCode }
            ClientOutput.json(object)
        } else {
            ClientOutput.info("Registered \(stored.userId) at \(service.info.name) (\(stored.server)).")
            ClientOutput.info(
                "Sign in: run the command the sign-in page shows (\(ClientInvocation.command) login 'URL#CODE'; its Copy the command button copies it)."
            )
        }
    }
}
