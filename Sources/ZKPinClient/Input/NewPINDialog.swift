/// Choosing a new PIN on a terminal (register, confirm, change-pin): the PIN; at once, when it
/// is easy to guess (`TrivialPIN`), the reason and whether to keep it; then the same PIN again.
/// Up to three rounds. The terminal is given as closures, so the order can be tested.
public struct NewPINDialog {
    /// Asks with the prompt, without echo; nil when there is no terminal.
    public var askSecret: (String) -> String?
    /// A yes/no question.
    public var confirm: (String) -> Bool
    /// A line for the person (standard error).
    public var note: (String) -> Void

    public init(askSecret: @escaping (String) -> String?, confirm: @escaping (String) -> Bool, note: @escaping (String) -> Void) {
        self.askSecret = askSecret
        self.confirm = confirm
        self.note = note
    }

    public static let noTerminal = ClientError.badInput(
        "There is no terminal to ask the PIN on. Pass it as one line on standard input with --pin-stdin.")

    /// The chosen PIN; `allowTrivial` keeps an easy one without asking.
    public func run(allowTrivial: Bool) throws(ClientError) -> PIN {
        var lastError = ClientError.pinMismatch
        for _ in 0..<3 {
            guard let line = askSecret("Choose a PIN (4 digits): ") else { throw Self.noTerminal }
            let first: PIN
            do { first = try PIN(parsing: line) } catch {
                note(error.message)
                lastError = error
                continue
            }
            if !allowTrivial, let reason = TrivialPIN.reason(first) {
                note("This PIN is easy to guess: \(reason).")
                guard confirm("Keep it anyway?") else {
                    note("Choose another PIN.")
                    continue
                }
            }
            guard let again = askSecret("Type the PIN again: ") else { throw Self.noTerminal }
            guard let second = try? PIN(parsing: again), second.value == first.value else {
                note("The two PINs differ; try again.")
                lastError = .pinMismatch
                continue
            }
            return first
        }
        throw lastError
    }
}
