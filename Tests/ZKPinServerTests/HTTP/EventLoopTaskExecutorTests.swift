import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import ZKPinServer

/// The server's tasks run on its event loops (`EventLoopTaskExecutor`): every job of a task
/// that prefers the executor runs on one of the group's loops, also after a continuation is
/// resumed by a thread outside the group (as the store's and the verifier's threads resume
/// them), and a thousand tasks at once (more jobs than one loop task drains) all finish.
@Suite(.timeLimit(.minutes(1))) struct EventLoopTaskExecutorTests {
    @Test func everyJobRunsOnTheGroupsLoopsWhoeverResumesIt() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let executor = EventLoopTaskExecutor(group: group)
        let loops = Set(group.makeIterator().map { ObjectIdentifier($0) })
        @Sendable func onALoop() -> Bool {
            MultiThreadedEventLoopGroup.currentEventLoop.map { loops.contains(ObjectIdentifier($0)) } ?? false
        }
        let seen = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: [Bool].self) { tasks in
                for index in 0..<1000 {
                    tasks.addTask {
                        var seen = [onALoop()]
                        if index % 5 == 0 {
                            await withCheckedContinuation { resumed in Thread { resumed.resume() }.start() }
                            seen.append(onALoop())
                        }
                        await Task.yield()
                        seen.append(onALoop())
                        return seen
                    }
                }
                var all = [onALoop()]
                for await part in tasks { all += part }
                return all
            }
        }
        let expected: Int = 1 + 1000 * 2 + 200
        let offTheLoops: Int = seen.filter { !$0 }.count
        #expect(seen.count == expected)
        #expect(offTheLoops == 0, "jobs that ran off the event loops")
        try await group.shutdownGracefully()
    }
}
