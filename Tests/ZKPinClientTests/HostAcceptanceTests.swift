import Testing
import ZKPinClient

/// Finding 10 of issue 16: with `--accept-host` a relay could sign the attacker's browser in
/// with the real server's identity. Now a mismatch is refused without the flag, refused for a
/// host the identity was never used with unless `--force`, and typed out on a terminal.
@Suite struct HostAcceptanceTests {
    let relay = "relay.example", bank = "bank.example"

    @Test func aRelayIsRefusedEvenWithAcceptHost() {
        let decision = HostAcceptance.decide(
            reached: relay, reported: bank, identityServer: "https://bank.example",
            acceptHost: true, force: false, interactive: false)
        guard case let .refuse(reason) = decision else { Issue.record("\(decision)"); return }
        #expect(reason.contains("never used with relay.example") && reason.contains("--force"))
        #expect(
            HostAcceptance.decide(
                reached: relay, reported: bank, identityServer: "https://bank.example",
                acceptHost: false, force: true, interactive: true) != .proceed)
    }

    @Test func aHostUsedBeforeIsAcceptedAndTypedOnATerminal() {
        // Registered through the internal name; the server reports its public one.
        let server = "http://10.0.0.5:8080"
        #expect(
            HostAcceptance.decide(
                reached: "10.0.0.5:8080", reported: bank, identityServer: server,
                acceptHost: true, force: false, interactive: false) == .proceed)
        #expect(
            HostAcceptance.decide(
                reached: "10.0.0.5:8080", reported: bank, identityServer: server,
                acceptHost: true, force: false, interactive: true) == .askToType(host: "10.0.0.5:8080"))
        #expect(
            HostAcceptance.decide(
                reached: relay, reported: bank, identityServer: "https://bank.example",
                acceptHost: true, force: true, interactive: true) == .askToType(host: relay))
        #expect(HostAcceptance.confirms(" Relay.Example\n", host: relay))
        #expect(!HostAcceptance.confirms("y", host: relay))
        #expect(!HostAcceptance.confirms(nil, host: relay))
    }
}
