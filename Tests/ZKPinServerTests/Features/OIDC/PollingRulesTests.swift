import Testing

@testable import ZKPinServer

/// The polling rules CIBA and the device grant share, on every state and time.
@Suite struct PollingRulesTests {
    typealias S = PollingRules.State

    @Test func everyVerdict() {
        let pending = S(answer: nil, expires: 100, nextPoll: 50, interval: 5)
        #expect(PollingRules.decide(pending, now: 49) == .slowDown)
        #expect(PollingRules.decide(pending, now: 50) == .pending)
        #expect(PollingRules.decide(pending, now: 100) == .expired)
        #expect(PollingRules.decide(S(answer: .approved, expires: 100, nextPoll: 50, interval: 5), now: 10) == .issue)
        #expect(PollingRules.decide(S(answer: .denied, expires: 100, nextPoll: 50, interval: 5), now: 10) == .denied)
        #expect(PollingRules.decide(S(answer: .approved, expires: 100, nextPoll: 50, interval: 5), now: 100) == .expired)
        #expect(PollingRules.decide(S(answer: .redeemed, expires: 100, nextPoll: 50, interval: 5), now: 200) == .used)
    }

    @Test func slowDownGrowsTheIntervalUpToItsLimit() {
        var s = S(answer: nil, expires: 10_000, nextPoll: 5, interval: 5)
        var now = 0
        for _ in 0..<20 {
            let verdict = PollingRules.decide(s, now: now)
            #expect(verdict == .slowDown)
            (s.interval, s.nextPoll) = PollingRules.after(verdict, s, now: now)
            #expect(s.nextPoll == now + s.interval)
            now += 1
        }
        #expect(s.interval == PollingRules.longestInterval)
        let paced = PollingRules.after(.pending, s, now: s.nextPoll)
        #expect(paced.interval == s.interval && paced.nextPoll == s.nextPoll + s.interval)
    }
}
