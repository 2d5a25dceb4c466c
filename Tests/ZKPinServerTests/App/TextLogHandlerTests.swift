import Foundation
import Logging
import Synchronization
import Testing

@testable import ZKPinServer

/// The default log format: StreamLogHandler's line, with the metadata formatted at write time.
@Suite struct TextLogHandlerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func withLock<T>(_ body: (inout [String]) -> T) -> T { lines.withLock { body(&$0) } }
    }

    func logger(_ level: Logger.Level, into lines: Lines) -> Logger {
        Logger(label: "zkpin") { label in
            TextLogHandler(label: label, level: level, metadataProvider: nil) { line in lines.withLock { $0.append(line) } }
        }
    }

    @Test func aLineHasTimeLevelLabelSortedMetadataSourceAndMessage() throws {
        let lines = Lines()
        var logger = logger(.info, into: lines)
        logger[metadataKey: "hb.request.id"] = "7"
        logger[metadataKey: "b"] = "2"
        logger.info("listening on 127.0.0.1:8005", metadata: ["a": "1", "b": "override"])
        let line = try #require(lines.withLock { $0.first })
        // e.g. 2026-11-25T12:00:00+0000 info zkpin: a=1 b=override hb.request.id=7 [ZKPinServer] listening on 127.0.0.1:8005
        let pattern =
            #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} info zkpin: a=1 b=override hb\.request\.id=7 \[ZKPinServerTests\] listening on 127\.0\.0\.1:8005\n$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test func linesBelowTheLevelAreNotWrittenAndNoMetadataMeansNone() throws {
        let lines = Lines()
        var logger = logger(.notice, into: lines)
        logger.info("not this")
        logger.warning("this")
        logger[metadataKey: "k"] = "v"
        logger.debug("nor this")
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        #expect(written.first?.hasSuffix(" warning zkpin: [ZKPinServerTests] this\n") == true, "\(written)")
    }
}
