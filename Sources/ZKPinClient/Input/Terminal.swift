#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Questions to the person at the terminal (`/dev/tty`), so that answers never come from a
/// pipe by accident and a PIN is never echoed. Non-interactive runs (no terminal, or
/// `ZKPIN_NONINTERACTIVE=1` as tests and scripts set) get nil from every question.
public enum Terminal {
    public static var isInteractive: Bool {
        if let flag = getenv("ZKPIN_NONINTERACTIVE"), String(cString: flag) == "1" { return false }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// Asks for a secret without echo; nil when there is no terminal or input ended.
    public static func readSecret(prompt: String) -> String? {
        guard isInteractive else { return nil }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        write(fd, prompt)
        var saved = termios()
        let hasTermios = tcgetattr(fd, &saved) == 0
        if hasTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            EchoGuard.remember(fd: fd, settings: saved)
            tcsetattr(fd, TCSAFLUSH, &quiet)
        }
        let line = readLine(fd: fd)
        if hasTermios {
            tcsetattr(fd, TCSAFLUSH, &saved)
            EchoGuard.forget()
        }
        return line
    }

    /// Asks a question with echo; nil when there is no terminal or input ended.
    public static func ask(_ prompt: String) -> String? {
        guard isInteractive else { return nil }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        write(fd, prompt)
        return readLine(fd: fd)
    }

    /// A yes/no question; false on anything but y/yes, and false when non-interactive.
    public static func confirm(_ prompt: String) -> Bool {
        guard let answer = ask(prompt + " [y/N] ") else { return false }
        let word = answer.trimmingCharacters(in: " \t")
        return word.lowercased() == "y" || word.lowercased() == "yes"
    }

    /// Reads one line from standard input (for `--pin-stdin` and payload `-`), without the
    /// line end; nil at end of input.
    public static func readStandardInputLine() -> String? {
        readLine(fd: STDIN_FILENO)
    }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in _ = Glibc.write(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads byte by byte up to a newline, so nothing after the line is consumed (the next
    /// reader of stdin gets it).
    private static func readLine(fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return bytes.isEmpty ? nil : decode(bytes) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
            if bytes.count > 4096 { break }
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        let text = decode(bytes)
        for i in bytes.indices { bytes[i] = 0 }
        return text
    }

    private static func decode(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}

/// Puts the terminal's echo back when the person presses Ctrl-C at a PIN prompt.
enum EchoGuard {
    nonisolated(unsafe) private static var fd: Int32 = -1
    nonisolated(unsafe) private static var settings = termios()

    static func remember(fd: Int32, settings: termios) {
        Self.settings = settings
        Self.fd = fd
        signal(SIGINT) { signalNumber in
            if EchoGuard.fd >= 0 { tcsetattr(EchoGuard.fd, TCSAFLUSH, &EchoGuard.settings) }
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
        }
    }

    static func forget() {
        fd = -1
        signal(SIGINT, SIG_DFL)
    }
}
