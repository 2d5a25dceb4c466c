/// Where pairings may run. A server installs a check (its debug builds do) that stops the
/// program when a pairing runs on a request's own thread instead of its pairing worker; nil,
/// the default, checks nothing. Called once per final exponentiation, so every pairing and
/// product of pairings passes it.
public enum PairingThreadCheck {
    nonisolated(unsafe) public static var check: (@Sendable () -> Void)?
}
