/// Where pairings may run. A server marks the work of each request (`onRequestThread`, a task
/// local, so it follows the request's task and the tasks it starts, and never the pairing
/// worker's own thread); in debug builds a pairing there stops the program, so every test that
/// reaches such a path fails. Run once per final exponentiation, so every pairing and product
/// of pairings passes it.
public enum PairingThreadCheck {
    @TaskLocal public static var onRequestThread = false

    @inline(__always)
    static func run() {
        #if DEBUG
            precondition(!onRequestThread, "a pairing ran on a request's thread, not on the pairing worker")
        #endif
    }
}
