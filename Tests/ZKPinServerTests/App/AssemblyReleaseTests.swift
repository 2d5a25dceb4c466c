import Foundation
import Testing

@testable import ZKPinServer

/// A built server that is let go lets its database go: no part of it (a feature's event
/// listener, a background deliverer) keeps the relying party alive. A leak here kept every
/// test's SQLite files open, over a thousand descriptors by the end of a run.
@Suite struct AssemblyReleaseTests {
    @Test func aDroppedServerClosesItsDatabase() async throws {
        weak var released: Store?
        let dir: String
        do {
            let harness = try await Harness.make()
            dir = harness.dir
            released = harness.rp.store
            let outbox = harness.outbox
            let status = try await harness.run { t in
                let user = try await TestUser.register(t, email: "lee@example.com", pin: 9753, outbox: outbox)
                _ = try await t.get("/rps/timePermit/\(user.mpinId)")
                return try await user.login(t).status
            }
            #expect(status == 200)
            #expect(Self.openFiles(under: dir) > 0)
        }
        // Hummingbird's test client may finish with the router a moment after the test body.
        for _ in 0..<100 where released != nil || Self.openFiles(under: dir) > 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(released == nil, "something still holds the relying party's store")
        #expect(Self.openFiles(under: dir) == 0, "the database files are still open")
    }

    /// Descriptors of this process open on files in `dir`.
    static func openFiles(under dir: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))?.hasPrefix(dir + "/") == true
        }.count
    }
}
