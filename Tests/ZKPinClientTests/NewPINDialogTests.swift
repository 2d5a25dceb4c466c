import Testing
import ZKPinClient

/// Choosing a new PIN on a terminal: an easy PIN is flagged as soon as it is typed, before it is
/// asked again; the order of prompts is what a person sees.
@Suite struct NewPINDialogTests {
    /// Runs the dialog on scripted answers; returns the PIN (or the error) and the transcript.
    func run(_ answers: [String], keep: [Bool] = [], allowTrivial: Bool = false) -> (pin: PIN?, error: ClientError?, said: [String]) {
        var answers = answers, keep = keep, said: [String] = []
        let dialog = NewPINDialog(
            askSecret: { prompt in
                said.append("? " + prompt)
                return answers.isEmpty ? nil : answers.removeFirst()
            },
            confirm: { question in
                said.append("? " + question)
                return keep.isEmpty ? false : keep.removeFirst()
            },
            note: { said.append($0) })
        do { return (try dialog.run(allowTrivial: allowTrivial), nil, said) } catch { return (nil, error, said) }
    }

    @Test func anEasyPINIsFlaggedBeforeItIsTypedAgain() {
        let (pin, _, said) = run(["1111", "4821", "4821"])
        #expect(pin?.value == 4821)
        #expect(
            said == [
                "? Choose a PIN (4 digits): ", "This PIN is easy to guess: all its digits are the same.", "? Keep it anyway?",
                "Choose another PIN.", "? Choose a PIN (4 digits): ", "? Type the PIN again: "
            ], "\(said)")
    }

    @Test func anEasyPINKeptOnPurposeIsAskedAgainOnce() {
        let (pin, _, said) = run(["1234", "1234"], keep: [true])
        #expect(pin?.value == 1234)
        #expect(said.filter { $0.hasPrefix("? Type the PIN again") }.count == 1, "\(said)")
        let allowed = run(["1234", "1234"], allowTrivial: true)
        #expect(allowed.pin?.value == 1234 && !allowed.said.contains { $0.contains("easy to guess") })
    }

    @Test func twoDifferentPINsThreeTimesFail() {
        let (pin, error, said) = run(["4821", "4822", "4821", "4822", "4821", "4822"])
        #expect(pin == nil && error == .pinMismatch)
        #expect(said.filter { $0 == "The two PINs differ; try again." }.count == 3)
        #expect(run([]).error == NewPINDialog.noTerminal)
    }
}
