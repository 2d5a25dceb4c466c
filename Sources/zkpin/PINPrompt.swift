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

    /// A new PIN, typed twice (or one line from standard input).
    static func readNew(fromStandardInput: Bool) throws(ClientError) -> PIN {
        if fromStandardInput { return try read(fromStandardInput: true) }
        for _ in 0..<3 {
            let first = try read(fromStandardInput: false, prompt: "Choose a PIN (4 digits): ")
            guard let again = Terminal.readSecret(prompt: "Type the PIN again: ") else { throw noTerminal }
            if let second = try? PIN(parsing: again), second.value == first.value { return first }
            ClientOutput.note("The two PINs differ; try again.")
        }
        throw .pinMismatch
    }

    static let noTerminal = ClientError.badInput(
        "There is no terminal to ask the PIN on. Pass it as one line on standard input with --pin-stdin.")
}
