import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A spinner with the time left, on standard error, while the client waits for the person to
/// confirm the activation link. Without a terminal it prints one line instead of animating.
final class Spinner: Sendable {
    private let task: Task<Void, Never>?

    init(label: String, seconds: Int) {
        guard isatty(STDERR_FILENO) == 1 else {
            ClientOutput.note("\(label) (up to \(Spinner.format(seconds)))...")
            task = nil
            return
        }
        let deadline = ContinuousClock.now + .seconds(seconds)
        task = Task {
            let frames = ["|", "/", "-", "\\"]
            var frame = 0
            while !Task.isCancelled {
                let left = max(0, Int(ContinuousClock.now.duration(to: deadline).components.seconds))
                let line = "\r\(frames[frame % frames.count]) \(label): \(Spinner.format(left)) left (Ctrl-C stops; `zkpin confirm` finishes later) "
                StandardStreams.writeError(line)
                frame += 1
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// Stops the animation and clears its line.
    func stop() async {
        guard let task else { return }
        task.cancel()
        await task.value
        StandardStreams.writeError("\r\u{1B}[2K")
    }

    static func format(_ seconds: Int) -> String {
        String(format: "%d:%02d", seconds / 60, seconds % 60)
    }
}
