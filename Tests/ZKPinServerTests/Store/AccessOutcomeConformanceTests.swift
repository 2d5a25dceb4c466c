import Testing

@testable import ZKPinServer

/// `markRefused` on every store: a live code at `wid` or `user` shows `blocked` or `refused`;
/// an expired code, or one already signed in, is left alone.
@Suite struct AccessOutcomeConformanceTests {
    @Test(arguments: StoreKind.available) func refusalsMoveOnlyLiveCodesInFlight(kind: StoreKind) async throws {
        let store = try await kind.make()
        func session(_ code: String, _ hash: String) -> AccessSession { AccessSession(webOTTHash: hash, code: code, created: 100, expires: 200) }
        #expect(try await store.insertAccessSession(session("1234560", "h1")))
        #expect(!(try await store.markRefused(code: "1234560", outcome: .blocked, now: 101)))  // still `new`
        #expect(try await store.presentCode("1234560", now: 101) != nil)
        #expect(try await store.markRefused(code: "1234560", outcome: .blocked, now: 102))
        #expect(try await store.accessSession(webOTTHash: "h1")?.status == .blocked)
        #expect(try await store.presentCode("1234560", now: 103) == nil)  // a blocked code is done

        #expect(try await store.insertAccessSession(session("7654321", "h2")))
        _ = try await store.presentCode("7654321", now: 101)
        #expect(try await store.markUser(code: "7654321", mpinId: "m", userId: "u", authOTTHash: "a", now: 102))
        #expect(try await store.markRefused(code: "7654321", outcome: .refused, now: 103))
        #expect(try await store.accessSession(webOTTHash: "h2")?.status == .refused)

        #expect(try await store.insertAccessSession(session("1111118", "h3")))
        _ = try await store.presentCode("1111118", now: 101)
        #expect(!(try await store.markRefused(code: "1111118", outcome: .refused, now: 200)))  // expired
        #expect(try await store.accessSession(webOTTHash: "h3")?.status == .wid)
    }
}
