import ZKPinClient

/// Gets a PIN: one line from standard input with `--pin-stdin`, else asked on the terminal
/// without echo (up to three tries for a typo).
enum PINPrompt {
    static func read(fromStandardInput: Bool, prompt: String = "PIN (4 digits): ") throws(ClientError) -> PIN {
        if fromStandardInput {
            guard let line = Terminal.readStandardInputLine() else {
                throw .invalidPIN(reason: "standard input ended before a PIN line")
            }
            return try PIN(parsing: line)
        }
        var lastError = ClientError.invalidPIN(reason: "nothing was typed")
        for _ in 0..<3 {
            guard let line = Terminal.readSecret(prompt: prompt) else { throw noTerminal }
            do { return try PIN(parsing: line) } catch {
                ClientOutput.note(error.message)
                lastError = error
            }
        }
        throw lastError
    }

    /// Another PIN after a wrong one, said at once (the page shows the wrong PIN too): the
    /// next line of standard input (nil when it ended, so a script that gave one PIN gets the
    /// wrong PIN's error), or asked on the terminal.
    static func readAgain(fromStandardInput: Bool, attemptsLeft: Int?) throws(ClientError) -> PIN? {
        guard fromStandardInput || Terminal.isInteractive else { return nil }
        let left = attemptsLeft.map { "\($0) attempt\($0 == 1 ? "" : "s") left" } ?? "attempts are limited"
        ClientOutput.note("Wrong PIN: \(left) before the identity is blocked; the same code still works.")
        if fromStandardInput {
            guard let line = Terminal.readStandardInputLine() else { return nil }
            return try PIN(parsing: line)
        }
        return try read(fromStandardInput: false, prompt: "PIN (4 digits, \(left)): ")
    }

    /// A new PIN (`NewPINDialog` on the terminal: an easy one is flagged before it is typed
    /// again), or one line from standard input, where a trivial PIN is refused unless
    /// `allowTrivial`.
    static func readNew(fromStandardInput: Bool, allowTrivial: Bool) throws(ClientError) -> PIN {
        if fromStandardInput {
            let pin = try read(fromStandardInput: true)
            if !allowTrivial, let reason = TrivialPIN.reason(pin) { throw .trivialPIN(reason: reason) }
            return pin
        }
        return try NewPINDialog(
            askSecret: { Terminal.readSecret(prompt: $0) }, confirm: { Terminal.confirm($0) }, note: { ClientOutput.note($0) }
        ).run(allowTrivial: allowTrivial)
    }

    static let noTerminal = NewPINDialog.noTerminal
}
